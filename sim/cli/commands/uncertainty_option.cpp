#include "sim/cli/uncertainty_option.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/check/check.hpp"
#include "sim/cli/option_values.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/run/uncertainty.hpp"

namespace iowall {
namespace {

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// The kind of figure a corpus point is: a bandwidth is a throughput, a rate an IOPS
// figure, a latency a latency; sizes and planner times are none of these.
std::string kind_of(const check::PointResult& p) {
  if (p.metric.rfind("latency", 0) == 0) return "latency";
  switch (p.published.dim) {
    case check::Dimension::bandwidth: return "throughput";
    case check::Dimension::rate: return "iops";
    default: return "";
  }
}

}  // namespace

void UncertaintyOption::add_to(CLI::App& cmd, bool with_sensitivity, bool with_widen) {
  cmd.add_option("--uncertainty", samples,
                 "N samples, each a full run with every uncertain input (\"14 GB/s +- 5%\", \"92 us .. 150 us\") drawn; "
                 "reports the median and 90% interval of each headline figure");
  cmd.add_option_function<std::string>(
      "--uncertainty-seed", [this](const std::string& text) {
        seed = parse_seed_option(text, "--uncertainty-seed");
        seed_given = true;
      },
      "seed of the draws (default 1): sample i's draws depend only on it and i");
  if (with_sensitivity)
    cmd.add_flag("--sensitivity", sensitivity,
                 "vary each uncertain input alone (5% and 95% quantiles), then the top 3 together: which inputs move the "
                 "answer most");
  if (with_widen)
    cmd.add_option("--widen-by", widen_by,
                   "a check result (reports/validation.json): widen each interval by the corpus's error for its kind of "
                   "figure")
        ->check(CLI::ExistingFile);
}

void UncertaintyOption::check() const {
  if (samples && *samples < 2)
    throw InputError("", "--uncertainty",
                     fmt::format("{} is not a number of samples: an interval needs at least 2 (e.g. --uncertainty 100)",
                                 *samples));
  if (samples && *samples > 1'000'000)
    throw InputError("", "--uncertainty", fmt::format("{} samples is more than the 1000000 a run may take", *samples));
  if (seed_given && !samples)
    throw InputError("", "--uncertainty-seed", "seeds the samples of --uncertainty N: give that too");
  if (!widen_by.empty() && !samples) throw InputError("", "--widen-by", "widens the intervals of --uncertainty N: give that too");
}

std::optional<Widening> UncertaintyOption::widening() const {
  if (widen_by.empty()) return std::nullopt;
  const JsonDocument doc = load_json(widen_by);
  const check::CheckResult r = check::check_from_json(doc.json, widen_by);
  std::map<std::string, std::vector<double>> errors;
  for (const check::PointResult& p : r.points)
    if (const std::string k = kind_of(p); !k.empty() && std::isfinite(p.error)) errors[k].push_back(p.error);
  if (errors.empty()) throw InputError(widen_by, "/cases", "holds no throughput, IOPS or latency point to widen by");
  Widening w;
  w.source = widen_by;
  for (const auto& [k, e] : errors)
    w.kinds[k] = {std::round(percentile(e, 0.05) * 1e4) / 1e4, std::round(percentile(e, 0.95) * 1e4) / 1e4, e.size()};
  return w;
}

UncertaintyOptions UncertaintyOption::options(int jobs, bool quiet) const {
  UncertaintyOptions u;
  u.samples = sample_count();
  u.seed = seed;
  u.sensitivity = sensitivity;
  u.widen = widening();
  u.jobs = jobs;
  u.quiet = quiet;
  return u;
}

}  // namespace iowall
