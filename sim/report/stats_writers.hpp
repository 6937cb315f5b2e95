// Statistics writers: JSON (one object keyed by "component/stat"), and text and CSV
// renderings of that JSON (one line or row per statistic).
#pragma once
#include <nlohmann/json.hpp>

#include "sim/core/stats.hpp"

namespace iowall {

// Histograms give count, mean, min, max and fio's percentile list.
nlohmann::json histogram_json(const LogLinearHistogram& h);
nlohmann::json stats_to_json(const StatRegistry& stats, Time end);
// From the JSON above: aligned text lines, and CSV rows with a header.
std::string stats_text(const nlohmann::json& stats);
std::string stats_csv(const nlohmann::json& stats, const std::string& prefix_columns = {},
                      const std::string& prefix_values = {});

}  // namespace iowall
