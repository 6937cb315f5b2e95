#include "sim/check/check.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "sim/config/scenario.hpp"
#include "sim/config/study.hpp"
#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/quote.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/plan_request.hpp"
#include "sim/report/progress.hpp"
#include "sim/run/runner.hpp"
#include "sim/run/study_runner.hpp"

namespace iowall::check {
namespace {

// What one reproduction produced: per-path metrics of a scenario run, the planner's
// answer, or a study's result document.
struct Outcome {
  RunResult run;  // scenario
  Json metrics;   // study: the result's JSON
  plan::PlanResult plan;
  std::exception_ptr error;
};

// A study result's number in SI units, by the unit its key ends with.
struct KeyUnit {
  const char* suffix;
  double to_si;
};
constexpr KeyUnit kKeyUnits[] = {{"_GBps", 1e9}, {"_Gbps", 1e9 / 8}, {"_MBps", 1e6}, {"_us", 1e-6},
                                 {"_ns", 1e-9},  {"_ms", 1e-3},      {"_s", 1.0},     {"_bytes", 1.0},
                                 {"_iops", 1.0}, {"_per_s", 1.0}};
bool study_value(const Json& result, const std::string& key, double& si) {
  if (!result.is_object() || !result.contains(key) || !result[key].is_number()) return false;
  for (const KeyUnit& u : kKeyUnits) {
    const std::string sfx = u.suffix;
    if (key.size() > sfx.size() && key.compare(key.size() - sfx.size(), sfx.size(), sfx) == 0) {
      si = result[key].get<double>() * u.to_si;
      return true;
    }
  }
  return false;
}

std::vector<std::string> overrides_of(const Json& set) {
  std::vector<std::string> out;
  for (const auto& [ptr, v] : set.items()) out.push_back(ptr + "=" + v.dump());
  return out;
}

Outcome reproduce(const Reproduction& r) {
  Outcome o;
  switch (r.kind) {
    case Reproduction::Kind::scenario: {
      o.run = run_scenario(load_scenario(r.file, overrides_of(r.set)));
      break;
    }
    case Reproduction::Kind::plan: {
      std::map<std::string, std::string> origin;
      std::string name;
      const Json settings = plan::settings_from_file(r.file, overrides_of(r.set), origin, name);
      const plan::PlanRequest q = plan::request_from_settings(settings, origin);
      o.plan = plan::solve(q.input, q.fidelity);
      break;
    }
    case Reproduction::Kind::study: {
      StudyEnv env;
      env.runner = &scenario_runner();
      o.metrics = run_study(r.study, Params(r.params, r.where), env)->to_json();
      break;
    }
  }
  return o;
}

std::string percent(double u) { return fmt::format("{:.0f}%", u * 100); }

// The simulated value of `c` from its reproduction's outcome, and what limited it.
Quantity simulated(const Source& s, const Case& c, const Outcome& o, std::string& limited_by) {
  Quantity q;
  q.dim = c.published.dim;
  switch (c.run.kind) {
    case Reproduction::Kind::scenario: {
      const PathResult* path = o.run.path(c.run.path);
      if (!path) {
        std::vector<std::string> labels;
        for (const PathResult& p : o.run.paths) labels.push_back(p.label);
        throw InputError(s.file, c.pointer + "/path",
                         fmt::format("\"{}\" is not a path of {} (its paths: {})", quote_text(c.run.path, 60), c.run.file,
                                     fmt::join(labels, ", ")));
      }
      const PathMetrics& m = path->metrics;
      switch (c.metric) {
        case Metric::throughput: q.si = m.throughput_GBps * 1e9; break;
        case Metric::iops: q.si = m.iops; break;
        case Metric::latency_mean: q.si = m.latency_mean_us * 1e-6; break;
        case Metric::latency_p50: q.si = m.latency_p50_us * 1e-6; break;
        case Metric::latency_p99: q.si = m.latency_p99_us * 1e-6; break;
        case Metric::cpu_cores: q.si = m.cpu_cores_busy; break;
        case Metric::done: q.si = m.last_done_s; break;
        default: break;
      }
      if (m.limited_by) limited_by = fmt::format("{} ({})", m.limited_by->resource, percent(m.limited_by->utilization));
      break;
    }
    case Reproduction::Kind::plan:
      switch (c.metric) {
        case Metric::checkpoint_bytes:
          q.si = o.plan.total_bytes;
          limited_by = fmt::format("{} B/param", o.plan.bytes_per_param.saved());
          break;
        case Metric::save_time:
          q.si = o.plan.save.last_done;
          limited_by = o.plan.save.bottleneck;
          break;
        case Metric::restore_time:
          q.si = o.plan.restore.last_done;
          limited_by = o.plan.restore.bottleneck;
          break;
        default: break;
      }
      break;
    case Reproduction::Kind::study: {
      if (!study_value(o.metrics, c.run.value, q.si)) {
        std::vector<std::string> names;
        for (const auto& [k, v] : o.metrics.items())
          if (v.is_number()) names.push_back(k);
        throw InputError(s.file, c.pointer + "/metric",
                         fmt::format("study \"{}\" gives no value \"{}\" with a unit in its name (its numbers: {})",
                                     c.run.study, quote_text(c.run.value, 60), quote_text(fmt::format("{}", fmt::join(names, ", ")), 200)));
      }
      for (const char* k : {"narrowest_hop", "busiest_hop", "limited_by"})
        if (o.metrics.contains(k) && o.metrics[k].is_string()) {
          limited_by = o.metrics[k].get<std::string>();
          break;
        }
      break;
    }
  }
  return q;
}

double median_value(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

CheckResult run_check(const Corpus& corpus, int jobs, bool quiet) {
  // The distinct reproductions, in corpus order.
  std::vector<const Reproduction*> runs;
  std::map<std::string, std::size_t> index;
  for (const Source& s : corpus.sources)
    for (const Case& c : s.cases)
      if (index.emplace(c.run.key(), runs.size()).second) runs.push_back(&c.run);

  std::vector<Outcome> outcomes(runs.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  Progress progress("reproductions", runs.size(), quiet);
  const auto worker = [&] {
    for (std::size_t i; !failed && (i = next++) < runs.size();) {
      try {
        outcomes[i] = reproduce(*runs[i]);
      } catch (...) {
        outcomes[i].error = std::current_exception();
        failed = true;
      }
      if (stop_requested()) failed = true;
      progress.advance();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::max(1, jobs); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  throw_if_interrupted();
  // The first failure in corpus order, whatever the number of threads.
  for (const Outcome& o : outcomes)
    if (o.error) std::rethrow_exception(o.error);

  CheckResult r;
  for (const Source& s : corpus.sources)
    for (const Case& c : s.cases) {
      PointResult p;
      p.source = s.id;
      p.id = c.id;
      p.figure = c.figure;
      p.metric = c.metric == Metric::study ? c.run.study + "." + c.run.value : name(c.metric);
      p.note = c.note;
      p.published_text = c.published_text;
      p.published = c.published;
      p.simulated = simulated(s, c, outcomes[index.at(c.run.key())], p.limited_by);
      p.error = p.simulated.si / p.published.si - 1;
      r.points.push_back(std::move(p));
    }
  summarize(r, corpus);
  return r;
}

void summarize(CheckResult& r, const Corpus& corpus) {
  r.sources.clear();
  std::vector<double> all;
  for (const Source& s : corpus.sources) {
    SourceSummary sum{s.id, s.title, s.publisher, s.url, s.year};
    std::vector<double> errs;
    for (const PointResult& p : r.points)
      if (p.source == s.id) errs.push_back(std::abs(p.error));
    sum.points = errs.size();
    sum.median_abs_error = median_value(errs);
    sum.max_abs_error = errs.empty() ? 0 : *std::max_element(errs.begin(), errs.end());
    all.insert(all.end(), errs.begin(), errs.end());
    r.sources.push_back(std::move(sum));
  }
  r.median_abs_error = median_value(all);
  r.max_abs_error = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
}

std::vector<std::string> regressions(const CheckResult& now, const CheckResult& base, double slack) {
  std::vector<std::string> out;
  if (now.median_abs_error > base.median_abs_error + slack)
    out.push_back(fmt::format("median |error| {:.1f}% is worse than the baseline's {:.1f}%", now.median_abs_error * 100,
                              base.median_abs_error * 100));
  for (const SourceSummary& s : now.sources)
    for (const SourceSummary& b : base.sources)
      if (s.id == b.id && s.median_abs_error > b.median_abs_error + slack)
        out.push_back(fmt::format("{}: median |error| {:.1f}% is worse than the baseline's {:.1f}%", s.id,
                                  s.median_abs_error * 100, b.median_abs_error * 100));
  for (const PointResult& p : now.points)
    for (const PointResult& b : base.points)
      if (p.source == b.source && p.id == b.id && std::abs(p.error) > std::abs(b.error) + slack)
        out.push_back(fmt::format("{}/{}: error {:+.1f}% is worse than the baseline's {:+.1f}%", p.source, p.id,
                                  p.error * 100, b.error * 100));
  return out;
}

}  // namespace iowall::check
