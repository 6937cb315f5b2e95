#include "sim/run/uncertainty_propagate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace iowall {

UncertaintySummary uncertainty_summary(const std::vector<UncertainInput>& inputs, const UncertaintyOptions& o) {
  UncertaintySummary u;
  u.samples = o.samples;
  u.seed = o.seed;
  for (const UncertainInput& in : inputs)
    u.inputs.push_back({in.label, in.name, in.text, in.pointer.empty() ? in.file : in.file + "#" + in.pointer, in.places, in.u.describe(),
                        quantity_display(in.u.kind, in.u.value_at(0.05)), quantity_display(in.u.kind, in.u.value_at(0.95))});
  u.widened = o.widen;
  const std::size_t k = inputs.size();
  if (k == 0)
    u.notes.push_back("no input carries an uncertainty, so every sample would equal the nominal run: give values as "
                      "\"14 GB/s +- 5%\", \"60 us +- 10 us\" or \"92 us .. 150 us\" (or a preset with a range)");
  else
    u.notes.push_back(fmt::format(
        "{} samples of {} uncertain input{}; each sample is a full run with every input drawn (normal for \"+-\", "
        "uniform for a range, triangular for a value with its range); intervals are the 5th to 95th percentile",
        o.samples, k, k == 1 ? "" : "s"));
  if (k > 0 && o.samples < 20)
    u.notes.push_back("fewer than 20 samples: the 90% interval is interpolated between the extreme samples");
  return u;
}

Propagation propagate(const std::vector<UncertainInput>& inputs, const std::vector<PropagatedFigure>& figures,
                      const TaskValues& nominal_figures, std::size_t ranked, const std::string& subject,
                      const std::function<TaskValues(const std::vector<i64>&)>& evaluate, const UncertaintyOptions& o) {
  Propagation out;
  const std::size_t k_count = inputs.size(), f_count = figures.size();
  const std::vector<i64> nominal = nominal_values(inputs);
  const std::size_t samples = k_count == 0 ? 0 : o.samples;
  const std::size_t one_at_a_time = o.sensitivity ? 2 * k_count : 0;
  const auto at = [&](std::size_t k, bool high) { return inputs[k].u.value_at(high ? 0.95 : 0.05); };
  const std::vector<TaskValues> phase1 = run_tasks(
      samples + one_at_a_time,
      [&](std::size_t t) {
        if (t < samples) return evaluate(sample_values(o.seed, t, inputs));
        std::vector<i64> v = nominal;
        const std::size_t k = (t - samples) / 2;
        v[k] = at(k, (t - samples) % 2 == 1);
        return evaluate(v);
      },
      [&](std::size_t t) { return uncertainty_task_label(t, samples, o.seed, inputs); },
      o.jobs, o.world, o.quiet, "uncertainty runs");

  if (o.samples > 0) {
    out.summary = uncertainty_summary(inputs, o);
    for (std::size_t f = 0; f < f_count; ++f) {
      std::vector<double> values;
      for (std::size_t t = 0; t < samples; ++t) values.push_back(phase1[t][f]);
      if (values.empty()) values.push_back(nominal_figures[f]);
      out.intervals.push_back(interval_of(values, figures[f].digits));
    }
  }
  if (!o.sensitivity) return out;

  SensitivityResult s;
  s.metric = figures[ranked].key;
  std::vector<std::pair<double, std::size_t>> order;  // (-relative swing of the ranked figure, input)
  for (std::size_t k = 0; k < k_count; ++k) {
    const TaskValues& lo = phase1[samples + 2 * k];
    const TaskValues& hi = phase1[samples + 2 * k + 1];
    const double x0 = static_cast<double>(nominal[k]);
    const double dx = x0 > 0 ? static_cast<double>(at(k, true) - at(k, false)) / x0 : 0;
    SensitivityRow row{inputs[k].label, quantity_display(inputs[k].u.kind, at(k, false)),
                       quantity_display(inputs[k].u.kind, at(k, true)), {}};
    for (std::size_t f = 0; f < f_count; ++f) {
      const double y0 = nominal_figures[f];
      const double e = y0 != 0 && dx != 0 ? ((hi[f] - lo[f]) / y0) / dx : 0;
      row.effects[subject][figures[f].key] = {lo[f], hi[f], std::round(e * 1e4) / 1e4};
    }
    const double y0 = nominal_figures[ranked];
    order.emplace_back(y0 != 0 ? -std::fabs(hi[ranked] - lo[ranked]) / std::fabs(y0) : 0.0, k);
    s.rows.push_back(std::move(row));
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<SensitivityRow> rows;
  for (const auto& [neg, k] : order) rows.push_back(s.rows[k]);
  s.rows = std::move(rows);

  // The top inputs together, at the ends that lower the ranked figure, then raise it.
  std::vector<std::size_t> top;
  for (const auto& [neg, k] : order)
    if (neg != 0 && top.size() < o.together) top.push_back(k);
  if (top.size() >= 2) {
    std::vector<i64> low = nominal, high = nominal;
    for (std::size_t k : top) {
      const bool raises = phase1[samples + 2 * k + 1][ranked] > phase1[samples + 2 * k][ranked];
      low[k] = raises ? at(k, false) : at(k, true);
      high[k] = raises ? at(k, true) : at(k, false);
    }
    const std::vector<TaskValues> phase2 = run_tasks(
        2, [&](std::size_t t) { return evaluate(t == 0 ? low : high); },
        [&](std::size_t) { return fmt::format("sensitivity: the top inputs of {} together", subject); }, o.jobs, o.world,
        o.quiet, "sensitivity runs");
    SensitivityCombined c;
    c.path = subject;
    for (std::size_t k : top) c.inputs.push_back(inputs[k].label);
    c.at_low = phase2[0][ranked];
    c.at_high = phase2[1][ranked];
    c.nominal = nominal_figures[ranked];
    s.combined.push_back(std::move(c));
  }
  out.sensitivity = std::move(s);
  return out;
}

}  // namespace iowall
