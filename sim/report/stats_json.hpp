// Statistics writers: JSON (one object keyed by "component/stat"), and the flat
// rows used by the text and CSV outputs.
#pragma once
#include <nlohmann/json.hpp>

#include "sim/core/stats.hpp"

namespace iowall {

// Histograms give count, mean, min, max and fio's percentile list.
nlohmann::json histogram_json(const LogLinearHistogram& h);
nlohmann::json stats_to_json(const StatRegistry& stats, Time end);

}  // namespace iowall
