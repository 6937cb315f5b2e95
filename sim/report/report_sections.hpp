// One section of the HTML report per result file, by kind, each reading the typed result
// (run_result.hpp, plan_result.hpp, validate_result.hpp), and the helpers they share.
#pragma once
#include <string>
#include <utility>
#include <vector>


#include "sim/report/report_chart.hpp"
#include "sim/report/result_file.hpp"
#include "sim/report/run_result.hpp"

namespace iowall::report {

std::string run_section(const ResultDoc& doc, Charts& charts);
std::string sweep_section(const ResultDoc& doc, Charts& charts);
std::string plan_section(const ResultDoc& doc, Charts& charts);
std::string validate_section(const ResultDoc& doc, Charts& charts);
// A run's prediction intervals and sensitivity (tornado charts); empty without them.
std::string uncertainty_part(const RunResult& r, Charts& charts);
// A plan's intervals of save, restore and overhead and its sensitivity; empty without them.
std::string plan_uncertainty_part(const PlanCheckpointResult& r, Charts& charts);

// Shared by the sections.
std::string fixed(double v, int digits);
// `s`, or `fallback` where `s` is empty.
std::string or_text(const std::string& s, const char* fallback);
// An interval with its median and both bounds multiplied by `k` (a change of unit).
Interval scaled(const Interval& v, double k);
// What each fidelity is, for readers who do not know the names.
std::string fidelity_text(const std::string& fidelity);
// "resource (97% busy)" from a path's metrics; when the run names no limiter, the busiest
// resource in its statistics, saying that it was derived here.
std::string limiter_text(const PathMetrics& metrics, const StatsResult& stats);
// Utilization (0..1) of every link direction in a path's statistics, keyed by "a--b/a>b".
std::vector<std::pair<std::string, double>> link_utilization(const StatsResult& stats);

}  // namespace iowall::report
