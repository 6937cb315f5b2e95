#include "sim/report/result_file.hpp"

#include "sim/core/quote.hpp"
#include "sim/report/result_kinds.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {
const char* const kKinds[] = {"run", "sweep", "plan_checkpoint", "validate"};
const char* const kWriters = "`iowall run`, `sweep`, `plan checkpoint` or `validate` with --output-format json";

using nlohmann::json;

[[noreturn]] void bad(const std::string& file, const std::string& ptr, const std::string& what) {
  throw InputError(file, ptr, what);
}

// A run's result as the report reads it: the paths, and a metrics object per path whose
// figures are numbers.
void check_run(const json& r, const std::string& file, const std::string& at) {
  if (!r.is_object()) bad(file, at, "not an object");
  if (!r.contains("paths") || !r["paths"].is_array() || r["paths"].empty())
    bad(file, at + "/paths", "missing, empty or not an array of data path names");
  if (!r.contains("metrics") || !r["metrics"].is_object()) bad(file, at + "/metrics", "missing or not an object");
  for (std::size_t i = 0; i < r["paths"].size(); ++i) {
    const json& p = r["paths"][i];
    if (!p.is_string()) bad(file, fmt::format("{}/paths/{}", at, i), "not a data path name");
    const std::string ptr = at + "/metrics/" + p.get<std::string>();
    const json& metrics = r["metrics"];
    if (!metrics.contains(p.get<std::string>()) || !metrics[p.get<std::string>()].is_object())
      bad(file, ptr, "missing or not an object");
    if (metrics[p.get<std::string>()].contains("throughput_GBps") && !metrics[p.get<std::string>()]["throughput_GBps"].is_number())
      bad(file, ptr + "/throughput_GBps", "not a number");
    for (const auto& [k, v] : metrics[p.get<std::string>()].items())
      if ((k.find("_us") != std::string::npos || k.find("_s") == k.size() - 2 || k.find("GBps") != std::string::npos ||
           k == "iops" || k == "cpu_cores_busy") &&
          !v.is_number() && !v.is_null())
        bad(file, ptr + "/" + k, "not a number");
    if (!metrics[p.get<std::string>()].contains("throughput_GBps"))
      bad(file, ptr + "/throughput_GBps", "missing");
  }
}

// The parts each kind's report section reads, checked before any of it is rendered.
void check_shape(const std::string& kind, const json& j, const std::string& file) {
  if (kind == "run") return check_run(j, file, "");
  if (kind == "sweep") {
    if (!j.contains("points") || !j["points"].is_array() || j["points"].empty())
      bad(file, "/points", "missing, empty or not an array of sweep points");
    for (std::size_t i = 0; i < j["points"].size(); ++i) {
      const json& pt = j["points"][i];
      const std::string ptr = fmt::format("/points/{}", i);
      if (!pt.is_object() || !pt.contains("result")) bad(file, ptr, "not a sweep point (expected values and a result)");
      if (pt.contains("values") && !pt["values"].is_object()) bad(file, ptr + "/values", "not an object");
      check_run(pt["result"], file, ptr + "/result");
    }
  } else if (kind == "validate") {
    if (!j.contains("points") || !j["points"].is_array()) bad(file, "/points", "missing or not an array of points");
    for (std::size_t i = 0; i < j["points"].size(); ++i)
      if (!j["points"][i].is_object()) bad(file, fmt::format("/points/{}", i), "not an object");
  } else if (kind == "plan_checkpoint") {
    for (const char* k : {"save", "restore"})
      if (!j.contains(k) || !j[k].is_object()) bad(file, std::string("/") + k, "missing or not an object");
  }
}

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
  if (registered) registered->check_shape(j, file);
  else check_shape(kind, j, file);
  return {file, kind, std::move(j)};
}

ResultDoc read_result(const std::string& path) {
  // Only files on disk: an embedded scenario of the same name is never a result.
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "", "no such file");
  return result_from_json(load_json(path).json, path);
}

}  // namespace iowall
