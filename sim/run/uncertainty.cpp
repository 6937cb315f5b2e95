#include "sim/run/uncertainty.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <thread>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/report/progress.hpp"
#include "sim/run/uncertainty_propagate.hpp"

namespace iowall {
namespace {

// A run's headline metrics, path by path: [path * M + metric].
TaskValues headline_values(const RunResult& r) {
  TaskValues v;
  for (const PathResult& p : r.paths)
    for (const HeadlineMetric& h : headline_metrics()) v.push_back(p.metrics.*h.value);
  return v;
}

// A failure as every rank can rethrow it.
Json failure_json(std::size_t i, const std::exception_ptr& e) {
  Json out = {{"index", i}};
  try {
    std::rethrow_exception(e);
  } catch (const InputError& x) {
    out["input"] = true;
    out["where"] = x.where();
    out["pointer"] = x.pointer();
    out["message"] = x.message();
  } catch (const Interrupted& x) {
    out["interrupted"] = true;
    out["message"] = x.what();
  } catch (const std::exception& x) {
    out["message"] = x.what();
  }
  return out;
}

[[noreturn]] void rethrow(const Json& f, const std::string& what) {
  const std::string message = f.value("message", "");
  if (f.value("interrupted", false)) throw Interrupted(message);
  if (f.value("input", false)) throw InputError(f.value("where", ""), f.value("pointer", ""), what + ": " + message);
  throw RunError(what + ": " + message);
}

std::string quantity_of(const UncertainInput& in, i64 v) { return quantity_display(in.u.kind, v); }

}  // namespace

std::string uncertainty_task_label(std::size_t t, std::size_t samples, std::uint64_t seed,
                                   const std::vector<UncertainInput>& inputs) {
  if (t < samples) return fmt::format("uncertainty sample {} (seed {})", t, seed);
  const std::size_t k = (t - samples) / 2;
  return fmt::format("sensitivity: {} at its {} quantile", inputs[k].label, (t - samples) % 2 == 0 ? "5%" : "95%");
}

std::vector<TaskValues> run_tasks(std::size_t count, const std::function<TaskValues(std::size_t)>& task,
                                  const std::function<std::string(std::size_t)>& what, int jobs, const mpi::World& world,
                                  bool quiet, const char* progress_label) {
  std::vector<std::size_t> mine;  // run i on rank i mod size
  for (std::size_t i = static_cast<std::size_t>(world.rank); i < count; i += static_cast<std::size_t>(world.size))
    mine.push_back(i);
  std::vector<TaskValues> local(mine.size());
  std::vector<std::exception_ptr> errors(mine.size());
  Progress progress(progress_label, mine.size(), quiet || world.rank != 0);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  const auto worker = [&] {
    // Runs start in index order and none starts after a failure, so the lowest failing
    // run of this rank is among those that ran.
    for (std::size_t k; !failed && (k = next++) < mine.size();) {
      try {
        throw_if_interrupted();
        local[k] = task(mine[k]);
        progress.advance();
      } catch (...) {
        errors[k] = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::max(1, jobs); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();

  std::vector<TaskValues> out(count);
  if (world.size <= 1) {
    for (std::size_t k = 0; k < mine.size(); ++k)
      if (errors[k]) rethrow(failure_json(mine[k], errors[k]), what(mine[k]));
    for (std::size_t k = 0; k < mine.size(); ++k) out[mine[k]] = std::move(local[k]);
    return out;
  }
  // Every rank sends its results (or its first failure) to every rank.
  Json mine_json = {{"results", Json::array()}};
  for (std::size_t k = 0; k < mine.size(); ++k) {
    if (errors[k]) {
      mine_json["failure"] = failure_json(mine[k], errors[k]);
      break;
    }
    mine_json["results"].push_back({{"index", mine[k]}, {"values", local[k]}});
  }
  std::optional<Json> first_failure;
  for (const std::string& text : mpi::all_gather(mine_json.dump(), world)) {
    const Json part = Json::parse(text);
    if (part.contains("failure") &&
        (!first_failure || part["failure"]["index"].get<std::size_t>() < (*first_failure)["index"].get<std::size_t>()))
      first_failure = part["failure"];
    for (const Json& r : part["results"]) {
      TaskValues v;
      for (const Json& x : r["values"]) v.push_back(x.is_null() ? std::nan("") : x.get<double>());
      out[r["index"].get<std::size_t>()] = std::move(v);
    }
  }
  if (first_failure) rethrow(*first_failure, what((*first_failure)["index"].get<std::size_t>()));
  return out;
}

RunResult run_with_uncertainty(const Scenario& sc, const UncertaintyOptions& o, const RunOptions& run_options) {
  RunResult result = run_scenario(sc, o.world.rank == 0 ? run_options : RunOptions{});
  const std::vector<UncertainInput> inputs = uncertain_inputs(sc);
  const std::vector<HeadlineMetric>& metrics = headline_metrics();
  const std::size_t paths = result.paths.size(), m_count = metrics.size(), k_count = inputs.size();
  const std::vector<i64> nominal = nominal_values(inputs);
  const auto run_values = [&](const std::vector<i64>& values) { return headline_values(run_scenario(with_values(sc, inputs, values))); };

  // Phase 1: the samples, then each input at its 5% and its 95% quantile.
  const std::size_t samples = k_count == 0 ? 0 : o.samples;
  const std::size_t one_at_a_time = o.sensitivity ? 2 * k_count : 0;
  const auto varied = [&](std::size_t t) {
    std::vector<i64> v = nominal;
    const std::size_t k = (t - samples) / 2;
    v[k] = inputs[k].u.value_at((t - samples) % 2 == 0 ? 0.05 : 0.95);
    return v;
  };
  const std::vector<TaskValues> phase1 = run_tasks(
      samples + one_at_a_time,
      [&](std::size_t t) { return run_values(t < samples ? sample_values(o.seed, t, inputs) : varied(t)); },
      [&](std::size_t t) { return uncertainty_task_label(t, samples, o.seed, inputs); },
      o.jobs, o.world, o.quiet, "uncertainty runs");

  if (o.samples > 0) {
    UncertaintySummary u = uncertainty_summary(inputs, o);
    if (o.widen) {
      std::vector<std::string> none;
      for (const HeadlineMetric& h : metrics)
        if (!*h.corpus_kind || !o.widen->kinds.count(h.corpus_kind) || o.widen->kinds.at(h.corpus_kind).points == 0)
          none.push_back(h.key);
      u.notes.push_back(fmt::format("intervals widened by the validation corpus's error ({}): the simulated interval "
                                    "divided by (1 + the corpus's 5% and 95% error) for the figure's kind{}",
                                    o.widen->source,
                                    none.empty() ? "" : fmt::format("; no corpus points for {}", fmt::join(none, ", "))));
    }
    for (std::size_t p = 0; p < paths; ++p) {
      PathIntervals iv;
      for (std::size_t m = 0; m < m_count; ++m) {
        const HeadlineMetric& h = metrics[m];
        std::vector<double> values;
        for (std::size_t t = 0; t < samples; ++t) values.push_back(phase1[t][p * m_count + m]);
        if (values.empty()) values.push_back(result.paths[p].metrics.*h.value);
        Interval v = interval_of(values, h.digits);
        if (o.widen && *h.corpus_kind && o.widen->kinds.count(h.corpus_kind))
          v = widen(v, o.widen->kinds.at(h.corpus_kind), h.inverse_of_kind, h.digits);
        iv.*h.interval = v;
      }
      result.paths[p].intervals = iv;
    }
    result.uncertainty = std::move(u);
  }
  if (!o.sensitivity) return result;

  // One at a time: each input's effect on every metric of every path.
  SensitivityResult s;
  const std::size_t ranked = 0;  // throughput, the first headline metric
  s.metric = metrics[ranked].key;
  std::vector<std::pair<double, std::size_t>> order;  // (-largest relative swing over paths, input)
  for (std::size_t k = 0; k < k_count; ++k) {
    const TaskValues& lo = phase1[samples + 2 * k];
    const TaskValues& hi = phase1[samples + 2 * k + 1];
    const double x0 = static_cast<double>(nominal[k]);
    const double x_lo = static_cast<double>(inputs[k].u.value_at(0.05)), x_hi = static_cast<double>(inputs[k].u.value_at(0.95));
    SensitivityRow row{inputs[k].label, quantity_of(inputs[k], inputs[k].u.value_at(0.05)),
                       quantity_of(inputs[k], inputs[k].u.value_at(0.95)), {}};
    double swing = 0;
    for (std::size_t p = 0; p < paths; ++p)
      for (std::size_t m = 0; m < m_count; ++m) {
        const double y0 = result.paths[p].metrics.*metrics[m].value;
        const double a = lo[p * m_count + m], b = hi[p * m_count + m];
        const double dx = x0 > 0 ? (x_hi - x_lo) / x0 : 0;
        const double e = y0 != 0 && dx != 0 ? ((b - a) / y0) / dx : 0;
        row.effects[result.paths[p].label][metrics[m].key] = {a, b, std::round(e * 1e4) / 1e4};
        if (m == ranked && y0 != 0) swing = std::max(swing, std::fabs(b - a) / std::fabs(y0));
      }
    s.rows.push_back(std::move(row));
    order.emplace_back(-swing, k);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<SensitivityRow> rows;
  for (const auto& [neg, k] : order) rows.push_back(s.rows[k]);

  // Together: per path, its top inputs at the ends that lower the answer, then raise it.
  struct Combo {
    std::size_t path;
    std::vector<std::size_t> inputs;
    std::vector<i64> low, high;
  };
  std::vector<Combo> combos;
  for (std::size_t p = 0; p < paths && o.together >= 2; ++p) {
    std::vector<std::pair<double, std::size_t>> by_swing;
    for (std::size_t k = 0; k < k_count; ++k) {
      const double d = phase1[samples + 2 * k + 1][p * m_count + ranked] - phase1[samples + 2 * k][p * m_count + ranked];
      if (d != 0) by_swing.emplace_back(-std::fabs(d), k);
    }
    std::stable_sort(by_swing.begin(), by_swing.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (by_swing.size() < 2) continue;
    Combo c{p, {}, nominal, nominal};
    for (std::size_t j = 0; j < std::min(o.together, by_swing.size()); ++j) {
      const std::size_t k = by_swing[j].second;
      const bool raises = phase1[samples + 2 * k + 1][p * m_count + ranked] > phase1[samples + 2 * k][p * m_count + ranked];
      const i64 at5 = inputs[k].u.value_at(0.05), at95 = inputs[k].u.value_at(0.95);
      c.inputs.push_back(k);
      c.low[k] = raises ? at5 : at95;
      c.high[k] = raises ? at95 : at5;
    }
    combos.push_back(std::move(c));
  }
  const std::vector<TaskValues> phase2 = run_tasks(
      2 * combos.size(),
      [&](std::size_t t) {
        const Combo& c = combos[t / 2];
        Scenario one = with_values(sc, inputs, t % 2 == 0 ? c.low : c.high);
        one.paths = {one.paths[c.path]};
        return headline_values(run_scenario(one));
      },
      [&](std::size_t t) { return fmt::format("sensitivity: the top inputs of {} together", result.paths[combos[t / 2].path].label); },
      o.jobs, o.world, o.quiet, "sensitivity runs");
  for (std::size_t j = 0; j < combos.size(); ++j) {
    SensitivityCombined c;
    c.path = result.paths[combos[j].path].label;
    for (std::size_t k : combos[j].inputs) c.inputs.push_back(inputs[k].label);
    c.at_low = phase2[2 * j][ranked];
    c.at_high = phase2[2 * j + 1][ranked];
    c.nominal = result.paths[combos[j].path].metrics.*metrics[ranked].value;
    s.combined.push_back(std::move(c));
  }
  s.rows = std::move(rows);
  result.sensitivity = std::move(s);
  return result;
}

}  // namespace iowall
