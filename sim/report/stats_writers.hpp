// Statistics writers over a run's typed statistics (stats_result.hpp): JSON (one object
// keyed by "component/stat"), and its reading back; aligned text lines and CSV rows (one
// per statistic, in path order).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/stats_result.hpp"

namespace iowall {

// Counters give their value; gauges mean and max (and capacity, series); histograms
// count, mean, min, max, stddev and fio's percentile list; every statistic its unit.
nlohmann::json stat_to_json(const StatRecord& r);
nlohmann::json stats_to_json(const StatsResult& stats);
// Reads what stats_to_json writes; a statistic's kind is told by its fields (value:
// counter, percentile: histogram, period_s without mean: series, else gauge). Throws
// InputError naming `file` and the field's pointer under `at` for a field of the wrong type.
StatsResult stats_from_json(const nlohmann::json& j, const std::string& file, const std::string& at);

std::string stats_text(const StatsResult& stats);
std::string stats_csv(const StatsResult& stats, const std::string& prefix_columns = {},
                      const std::string& prefix_values = {});

}  // namespace iowall
