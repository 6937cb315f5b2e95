// `iowall check`: every case of the validation corpus reproduced and compared with its
// published figure. Cases that share a reproduction (the same scenario with the same
// overrides, the same planner question, the same study) share one simulation, and the
// simulations run on `jobs` threads; the result lists points in corpus order, so it
// does not depend on the number of threads. The result is typed; it is serialized once
// (check_json) and the baseline a CI run compares with is read back the same way.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/check/corpus.hpp"

namespace iowall::check {

struct PointResult {
  std::string source, id, figure, metric, note;
  std::string published_text;
  Quantity published, simulated;
  double error = 0;         // simulated / published - 1
  std::string limited_by;   // what bounded the simulation ("nvme0/media_read (98%)"), if it says
};

struct SourceSummary {
  std::string id, title, publisher, url;
  int year = 0;
  std::size_t points = 0;
  double median_abs_error = 0, max_abs_error = 0;
};

struct CheckResult {
  std::vector<PointResult> points;
  std::vector<SourceSummary> sources;
  double median_abs_error = 0, max_abs_error = 0;
};

// `quiet`: no progress line (one is shown on a terminal otherwise).
CheckResult run_check(const Corpus& corpus, int jobs, bool quiet = true);

// Median and largest |error| of the points, per source and overall.
void summarize(CheckResult& r, const Corpus& corpus);

Json check_json(const CheckResult& r);
// Reads a result written by check_json (a committed baseline); throws InputError
// naming `file` and the pointer for anything else.
CheckResult check_from_json(const Json& j, const std::string& file);

// The accuracy ratchet: what got worse than `baseline` by more than `slack` (absolute
// |error|, 0.02 = 2 points): the overall median, a source's median, or any point that
// the baseline holds. Points new since the baseline are not compared.
std::vector<std::string> regressions(const CheckResult& now, const CheckResult& baseline, double slack);

}  // namespace iowall::check
