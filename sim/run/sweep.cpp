#include "sim/run/sweep.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/report/progress.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/uncertainty.hpp"

namespace iowall {

SweepPoints::SweepPoints(const Scenario& sc, const std::vector<SweepAxis>& axes, std::size_t max_points,
                         const std::string& where, const std::string& pointer)
    : base_(sc.doc), axes_(axes) {
  base_.erase("sweep");
  for (const SweepAxis& axis : axes) {
    if (axis.values.empty())
      throw InputError(where, pointer, fmt::format("the axis {} has no values", axis.pointer.substr(0, 80)));
    if (count_ > max_points / axis.values.size())
      throw InputError(where, pointer,
                       fmt::format("the axes make more than {} points; pass --max-points to run a sweep this large",
                                   max_points));
    count_ *= axis.values.size();
  }
}

SweepPoint SweepPoints::at(std::size_t i) const {
  SweepPoint p{Json::object(), base_};
  std::size_t rest = i;
  std::vector<std::size_t> digit(axes_.size());
  for (std::size_t a = axes_.size(); a-- > 0;) {
    digit[a] = rest % axes_[a].values.size();
    rest /= axes_[a].values.size();
  }
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    const Json& v = axes_[a].values[digit[a]];
    p.values[axes_[a].pointer] = v;
    p.doc[Json::json_pointer(axes_[a].pointer)] = v;
  }
  return p;
}

Shard parse_shard(const std::string& text, const std::string& option) {
  Shard s;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> s.index >> slash >> s.count) || slash != '/' || !in.eof() || s.count < 1 || s.index < 0 ||
      s.index >= s.count)
    throw InputError("", option, fmt::format("\"{}\" is not a shard i/N with 0 <= i < N (e.g. 0/4)", text));
  return s;
}

SweepResult run_sweep(const Scenario& sc, const SweepPoints& all, int jobs, const std::string& directory,
                      Shard shard, bool quiet, const UncertaintyOptions* uncertainty) {
  std::vector<std::size_t> index;  // the shard's points, by index in the whole sweep
  for (std::size_t i = static_cast<std::size_t>(shard.index); i < all.size(); i += static_cast<std::size_t>(shard.count))
    index.push_back(i);
  std::vector<SweepPointResult> results(index.size());
  Progress progress("sweep points", index.size(), quiet);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::size_t failed_i = SIZE_MAX;
  std::mutex failure_mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < index.size() && !failed; i = next++) {
      try {
        throw_if_interrupted();
        const SweepPoint p = all.at(index[i]);
        const Scenario point = scenario_from_json(p.doc, sc.file, directory);
        if (uncertainty) {
          UncertaintyOptions one = *uncertainty;
          one.jobs = 1;
          one.world = {};
          one.quiet = true;
          results[i] = {index[i], p.values, run_with_uncertainty(point, one)};
        } else {
          results[i] = {index[i], p.values, run_scenario(point)};
        }
        progress.advance();
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        // Points start in order and none starts after a failure, so every point before
        // this one has run: the earliest failing point is reported, whatever --jobs is.
        if (i < failed_i) {
          failed_i = i;
          failure = std::current_exception();
        }
        failed = true;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  SweepResult out{kIowallVersion, sc.name, std::move(results), std::nullopt, std::nullopt};
  if (shard.count > 1) {
    out.shard = fmt::format("{}/{}", shard.index, shard.count);
    out.sweep_points = all.size();
  }
  return out;
}

SweepResult merge_sweeps(const std::vector<Json>& parts, const std::vector<std::string>& names) {
  if (parts.empty()) throw InputError("", "--merge", "no sweep results to merge");
  std::map<std::size_t, SweepPointResult> points;
  std::map<int, std::string> shards;  // shard index -> file
  int count = 0;
  std::size_t total = 0;
  for (std::size_t f = 0; f < parts.size(); ++f) {
    const Json& p = parts[f];
    const std::string& where = names[f];
    if (!p.is_object() || !p.contains("points") || !p["points"].is_array())
      throw InputError(where, "/points", "not a sweep result (expected an array of points)");
    if (!p.contains("shard") || !p["shard"].is_string() || !p.contains("sweep_points") ||
        !p["sweep_points"].is_number_unsigned())
      throw InputError(where, "/shard", "not a shard of a sweep (run it with --shard i/N)");
    if (p.value("scenario", Json()) != parts[0].value("scenario", Json()) ||
        p.value("iowall_version", Json()) != parts[0].value("iowall_version", Json()))
      throw InputError(where, "/scenario", "the files are not parts of one sweep of one iowall version");
    const Shard s = parse_shard(p["shard"].get<std::string>(), where + ": /shard");
    if (count == 0) {
      count = s.count;
      total = p["sweep_points"].get<std::size_t>();
    }
    if (s.count != count || p["sweep_points"].get<std::size_t>() != total)
      throw InputError(where, "/shard", fmt::format("shard {} is not one of the {} shards of the first file", p["shard"].get<std::string>(), count));
    if (!shards.emplace(s.index, where).second)
      throw InputError(where, "/shard", fmt::format("shard {}/{} is given twice", s.index, count));
    for (std::size_t k = 0; k < p["points"].size(); ++k) {
      const Json& pt = p["points"][k];
      const std::string ptr = fmt::format("/points/{}", k);
      if (!pt.is_object() || !pt.contains("index") || !pt["index"].is_number_unsigned() || !pt.contains("result") ||
          !pt["result"].is_object())
        throw InputError(where, ptr, "not a sweep point (expected an index and a result)");
      const std::size_t i = pt["index"].get<std::size_t>();
      if (i >= total || static_cast<int>(i % static_cast<std::size_t>(count)) != s.index)
        throw InputError(where, ptr + "/index", fmt::format("point {} does not belong to shard {}/{}", i, s.index, count));
      if (points.count(i)) throw InputError(where, ptr + "/index", fmt::format("point {} appears twice", i));
      points.emplace(i, sweep_point_from_json(pt, where, ptr, k));
    }
  }
  if (static_cast<int>(shards.size()) != count) {
    int missing = 0;
    while (shards.count(missing)) ++missing;
    throw InputError("", "--merge", fmt::format("shard {}/{} is missing: merge all {} shards", missing, count, count));
  }
  if (points.size() != total)
    throw InputError("", "--merge", fmt::format("{} of the sweep's {} points are present", points.size(), total));
  SweepResult out;
  const Json& first = parts[0];
  if (first.contains("iowall_version")) {
    if (!first["iowall_version"].is_string()) throw InputError(names[0], "/iowall_version", "not a string");
    out.iowall_version = first["iowall_version"].get<std::string>();
  }
  if (!first.contains("scenario") || !first["scenario"].is_string())
    throw InputError(names[0], "/scenario", "missing or not a string");
  out.scenario = first["scenario"].get<std::string>();
  for (auto& [i, pt] : points) out.points.push_back(std::move(pt));
  return out;
}

}  // namespace iowall
