// Result files: every result JSON that iowall writes (run, sweep, plan checkpoint,
// validate) carries {"iowall_result": {"kind": ..., "version": N}} so that `iowall
// report` can refuse files it cannot read instead of drawing wrong charts.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace iowall {

// Raised when the shape of the result JSON changes in a way old readers would misread.
constexpr int kResultVersion = 1;

// The marker a writer puts at the top of its result: {"kind": kind, "version": kResultVersion}.
nlohmann::json result_marker(const std::string& kind);

struct ResultDoc {
  std::string file;  // as the user named it, for messages and the report
  std::string kind;  // run, sweep, plan_checkpoint, validate
  nlohmann::json json;
};

// Checks the marker of an in-memory result; throws InputError naming `file` and the pointer.
ResultDoc result_from_json(nlohmann::json j, const std::string& file);
// Reads and checks one result file (missing, malformed, foreign or other-version: InputError).
ResultDoc read_result(const std::string& path);

}  // namespace iowall
