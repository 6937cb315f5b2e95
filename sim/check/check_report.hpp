// What people read of a check: a table per point (published, simulated, signed error,
// what limited the simulation), then per source and overall the number of points,
// median and worst |error|; as text, as the committed markdown report, and as a
// section of the HTML report with a parity chart per kind of quantity (simulated
// against published, log axes, the +-10% and +-25% bands, a marker per source).
#pragma once
#include <string>

#include "sim/check/check.hpp"

namespace iowall::check {

std::string check_table(const CheckResult& r);
// reports/validation.md: the same, with each source's document and conditions, and the
// command that regenerates it.
std::string check_markdown(const CheckResult& r, const Corpus& corpus, const std::string& command);

}  // namespace iowall::check
