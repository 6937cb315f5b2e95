// A run's and a sweep's typed result (run_result.hpp) as the result JSON: the one writer
// of that document, and its reader for `iowall report` and `sweep --merge`. The JSON keeps
// fio-like names ("paths" in order, then "metrics" and "stats" keyed by path) and the
// result marker {"iowall_result": {"kind", "version"}}.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/run_result.hpp"

namespace iowall {

nlohmann::json to_json(const RunResult& r);
nlohmann::json to_json(const SweepPointResult& p);
nlohmann::json to_json(const SweepResult& r);

// Read a result document back (its marker is not checked here: result_file.hpp does).
// A field of the wrong type, a missing "paths", "metrics" or throughput: InputError
// naming `file` and the pointer (under `at`, where the run sits inside a larger document).
RunResult run_result_from_json(const nlohmann::json& j, const std::string& file, const std::string& at = "");
SweepPointResult sweep_point_from_json(const nlohmann::json& j, const std::string& file, const std::string& at,
                                       std::size_t position);
SweepResult sweep_result_from_json(const nlohmann::json& j, const std::string& file);

}  // namespace iowall
