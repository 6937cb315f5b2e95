// Result files: every result JSON that iowall writes (run, sweep, plan checkpoint,
// validate) carries {"iowall_result": {"kind": ..., "version": N}} so that `iowall
// report` can refuse files it cannot read instead of drawing wrong charts.
#pragma once
#include <string>
#include <vector>

#include <optional>

#include <nlohmann/json.hpp>

#include "sim/report/plan_result.hpp"
#include "sim/report/run_result.hpp"
#include "sim/report/validate_result.hpp"

namespace iowall {

// Raised when the shape of the result JSON changes in a way old readers would misread.
constexpr int kResultVersion = 1;

// The marker a writer puts at the top of its result: {"kind": kind, "version": kResultVersion}.
nlohmann::json result_marker(const std::string& kind);

// A result as the report reads it, typed; the one its kind names is set.
struct ResultDoc {
  std::string file;  // as the user named it, for messages and the report
  std::string kind;  // run, sweep, plan_checkpoint, validate, or a registered kind
  std::optional<RunResult> run;
  std::optional<SweepResult> sweep;
  std::optional<PlanCheckpointResult> plan;
  std::optional<ValidateResult> validate;
  // A kind registered by a layer above the writers (sim/report/result_kinds.hpp): its
  // JSON, which that layer reads into its own type.
  std::optional<nlohmann::json> other;
};

// Checks the marker of an in-memory result and reads it; throws InputError naming `file`
// and the pointer.
ResultDoc result_from_json(nlohmann::json j, const std::string& file);
// A typed result the command has just made, as the report reads it.
ResultDoc result_doc(RunResult r, const std::string& file);
ResultDoc result_doc(SweepResult r, const std::string& file);
ResultDoc result_doc(PlanCheckpointResult r, const std::string& file);
ResultDoc result_doc(ValidateResult r, const std::string& file);
// Reads and checks one result file (missing, malformed, foreign or other-version: InputError).
ResultDoc read_result(const std::string& path);

}  // namespace iowall
