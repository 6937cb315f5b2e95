#include "sim/report/result_file.hpp"

#include "sim/core/quote.hpp"
#include "sim/report/result_kinds.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/plan_result_json.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/report/validate_result_json.hpp"

namespace iowall {
namespace {
const char* const kKinds[] = {"run", "sweep", "plan_checkpoint", "validate"};
const char* const kWriters = "`iowall run`, `sweep`, `plan checkpoint` or `validate` with --output-format json";

using nlohmann::json;

}  // namespace

nlohmann::json result_marker(const std::string& kind) { return {{"kind", kind}, {"version", kResultVersion}}; }

ResultDoc result_from_json(nlohmann::json j, const std::string& file) {
  if (!j.is_object() || !j.contains("iowall_result") || !j["iowall_result"].is_object())
    throw InputError(file, "/iowall_result", fmt::format("not an iowall result (expected a file written by {})", kWriters));
  const nlohmann::json& m = j["iowall_result"];
  if (!m.contains("version") || !m["version"].is_number_integer())
    throw InputError(file, "/iowall_result/version", "missing or not an integer");
  const int version = m["version"].get<int>();
  if (version != kResultVersion)
    throw InputError(file, "/iowall_result/version",
                     fmt::format("result format version {} is not the one this iowall reads ({}); re-run the command "
                                 "that wrote it with this iowall",
                                 version, kResultVersion));
  if (!m.contains("kind") || !m["kind"].is_string()) throw InputError(file, "/iowall_result/kind", "missing or not a string");
  const std::string kind = m["kind"].get<std::string>();
  bool known = false;
  for (const char* k : kKinds) known = known || kind == k;
  const report::ResultKind* registered = report::find_result_kind(kind);
  if (!known && !registered) {
    std::vector<std::string> all(std::begin(kKinds), std::end(kKinds));
    for (const std::string& k : report::registered_result_kinds()) all.push_back(k);
    throw InputError(file, "/iowall_result/kind",
                     fmt::format("\"{}\" is not a kind of result this iowall reports ({})", quote_text(kind, 40),
                                 fmt::join(all, ", ")));
  }
  // A kind registered by a layer above the writers keeps its JSON for its own reader.
  if (registered) {
    registered->check_shape(j, file);
    ResultDoc d{file, kind, {}, {}, {}, {}, std::move(j)};
    return d;
  }
  // Each kind is read into its type, which checks what its report section reads.
  if (kind == "run") return result_doc(run_result_from_json(j, file), file);
  if (kind == "sweep") return result_doc(sweep_result_from_json(j, file), file);
  if (kind == "plan_checkpoint") return result_doc(plan_result_from_json(j, file), file);
  return result_doc(validate_result_from_json(j, file), file);
}

ResultDoc result_doc(RunResult r, const std::string& file) { return {file, "run", std::move(r), {}, {}, {}, {}}; }
ResultDoc result_doc(SweepResult r, const std::string& file) { return {file, "sweep", {}, std::move(r), {}, {}, {}}; }
ResultDoc result_doc(PlanCheckpointResult r, const std::string& file) {
  return {file, "plan_checkpoint", {}, {}, std::move(r), {}, {}};
}
ResultDoc result_doc(ValidateResult r, const std::string& file) { return {file, "validate", {}, {}, {}, std::move(r), {}}; }

ResultDoc read_result(const std::string& path) {
  // Only files on disk: an embedded scenario of the same name is never a result.
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "", "no such file");
  return result_from_json(load_json(path).json, path);
}

}  // namespace iowall
