// What a run says about its own uncertainty, as typed values: the 90% interval of each
// headline metric over Monte Carlo samples of the uncertain inputs (every parameter
// given as "value +- spread" or a range), the inputs and their distributions, and the
// one-at-a-time sensitivity of the answer to each input (elasticity: % answer per %
// input). The runner (sim/run/uncertainty.hpp) fills these; run_result_json.hpp writes
// them only when present, so a run without --uncertainty or --sensitivity is unchanged.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace iowall {

struct PathMetrics;

// The median and the 5th and 95th percentiles of a metric over the samples (a 90%
// interval; linear interpolation between order statistics).
struct Interval {
  double median = 0, low = 0, high = 0;
  bool operator==(const Interval&) const = default;
};

// One interval per headline metric of a data path.
struct PathIntervals {
  Interval throughput_GBps, iops, latency_mean_us, latency_p50_us, latency_p99_us, cpu_cores_busy, last_done_s;
  bool operator==(const PathIntervals&) const = default;
};

// The headline metrics, in the order every writer lists them: the JSON key, what it is
// for people (with its unit), where it is in PathMetrics and PathIntervals, the decimals
// it is rounded to, and the kind of figure the validation corpus checks it as
// ("throughput", "iops", "latency", or "" for none; done time scales as 1/throughput).
struct HeadlineMetric {
  const char* key;
  const char* title;
  double PathMetrics::*value;
  Interval PathIntervals::*interval;
  int digits;
  const char* corpus_kind;
  bool inverse_of_kind;  // larger when the corpus's kind is smaller (done time vs throughput)
};
const std::vector<HeadlineMetric>& headline_metrics();
const HeadlineMetric* headline_metric(const std::string& key);

// One uncertain input: every place that gives the same parameter the same uncertain
// value is one unknown (eight drives of one preset share it).
struct UncertainInputSummary {
  std::string label;         // "pm1743.read_bandwidth", "nvme0.read_latency", "workload.io_size"
  std::string name;          // the parameter
  std::string text;          // as written
  std::string where;         // FILE#POINTER of the first place
  std::size_t places = 0;    // how many places share it
  std::string distribution;  // "normal, sd 0.65 GB/s (truncated to ...)"
  std::string low, high;     // its 5% and 95% quantiles
  bool operator==(const UncertainInputSummary&) const = default;
};

// The validation corpus's error for one kind of figure: the 5% and 95% quantiles of
// simulated / published - 1 over its points of that kind.
struct ErrorBand {
  double low = 0, high = 0;
  std::size_t points = 0;
  bool operator==(const ErrorBand&) const = default;
};
struct Widening {
  std::string source;                     // the check result it was read from
  std::map<std::string, ErrorBand> kinds;  // by corpus kind
  bool operator==(const Widening&) const = default;
};

struct UncertaintySummary {
  std::size_t samples = 0;
  std::uint64_t seed = 0;
  double level = 0.9;
  std::vector<UncertainInputSummary> inputs;
  std::optional<Widening> widened;  // intervals widened by the corpus's error
  std::vector<std::string> notes;
  bool operator==(const UncertaintySummary&) const = default;
};

// A metric at an input's 5% and 95% quantiles (the others nominal), and the elasticity
// ((at_high - at_low) / nominal answer) / ((input high - input low) / nominal input).
struct SensitivityEffect {
  double at_low = 0, at_high = 0, elasticity = 0;
  bool operator==(const SensitivityEffect&) const = default;
};
struct SensitivityRow {
  std::string input;  // the input's label
  std::string low, high;  // the values it was set to
  std::map<std::string, std::map<std::string, SensitivityEffect>> effects;  // path -> metric -> effect
  bool operator==(const SensitivityRow&) const = default;
};
// The top inputs of a path (by their swing of the ranked metric) set together to the
// ends that lower the answer, then to those that raise it.
struct SensitivityCombined {
  std::string path;
  std::vector<std::string> inputs;
  double at_low = 0, at_high = 0;  // the ranked metric
  double nominal = 0;
  bool operator==(const SensitivityCombined&) const = default;
};
struct SensitivityResult {
  std::string metric = "throughput_GBps";  // what the rows are ranked by
  std::vector<SensitivityRow> rows;        // ranked: largest swing of the metric over paths first
  std::vector<SensitivityCombined> combined;
  bool operator==(const SensitivityResult&) const = default;
};

// The interval of `values` (need not be sorted), rounded to `digits` decimals.
Interval interval_of(std::vector<double> values, int digits);
// `v` widened by a corpus error band: the true value is simulated / (1 + error).
Interval widen(const Interval& v, const ErrorBand& band, bool inverse, int digits);

}  // namespace iowall
