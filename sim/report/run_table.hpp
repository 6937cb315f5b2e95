// The text a person reads in ten seconds, and the CSV rows, from a run's typed result.
#pragma once
#include <string>

#include "sim/report/run_result.hpp"

namespace iowall {

std::string run_table(const RunResult& result);
std::string run_csv(const RunResult& result);
// One row per point and path: the point's index, one column per sweep axis (its JSON
// pointer as the header, the value as given), then run_csv's columns.
std::string sweep_csv(const SweepResult& result);

}  // namespace iowall
