// The options that ask a command for its answer's uncertainty: --uncertainty N (Monte
// Carlo samples of every uncertain input), --uncertainty-seed, --sensitivity (which inputs
// move the answer most) and --widen-by CHECK.json (widen each interval by the validation
// corpus's error for the kind of figure). Shared by run, sweep and plan checkpoint.
#pragma once
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/report/uncertainty_result.hpp"

namespace iowall {

struct UncertaintyOptions;

struct UncertaintyOption {
  std::optional<long long> samples;
  std::uint64_t seed = 1;
  bool seed_given = false;
  bool sensitivity = false;
  std::string widen_by;
  void add_to(CLI::App& cmd, bool with_sensitivity = true, bool with_widen = true);
  // Before any work: --uncertainty below 2, or --widen-by or --uncertainty-seed without it,
  // is an InputError naming the option.
  void check() const;
  bool any() const { return samples.has_value() || sensitivity; }
  std::size_t sample_count() const { return samples ? static_cast<std::size_t>(*samples) : 0; }
  // The corpus's error bands by kind of figure, read from the check result --widen-by names.
  std::optional<Widening> widening() const;
  // What the options ask for, as the propagation takes it (samples, seed, sensitivity,
  // widening), run over `jobs` threads; no progress line when `quiet`.
  UncertaintyOptions options(int jobs, bool quiet) const;
};

}  // namespace iowall
