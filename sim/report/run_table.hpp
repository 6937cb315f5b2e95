// The text a person reads in ten seconds, and the CSV rows, from a run's typed result.
#pragma once
#include <string>

#include "sim/report/run_result.hpp"

namespace iowall {

std::string run_table(const RunResult& result);
std::string run_csv(const RunResult& result);

}  // namespace iowall
