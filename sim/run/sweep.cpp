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
#include "sim/report/result_file.hpp"

namespace iowall {

std::vector<SweepPoint> sweep_points(const Scenario& sc, const std::vector<SweepAxis>& axes) {
  std::vector<SweepPoint> points{SweepPoint{Json::object(), sc.doc}};
  points[0].doc.erase("sweep");
  for (const SweepAxis& axis : axes) {
    std::vector<SweepPoint> next;
    for (const SweepPoint& p : points)
      for (const Json& v : axis.values) {
        SweepPoint q = p;
        q.values[axis.pointer] = v;
        q.doc[Json::json_pointer(axis.pointer)] = v;
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  return points;
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

Json run_sweep(const Scenario& sc, const std::vector<SweepAxis>& axes, int jobs, const std::string& directory,
               Shard shard, bool quiet) {
  std::vector<SweepPoint> all = sweep_points(sc, axes);
  std::vector<SweepPoint> points;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (static_cast<int>(i % static_cast<std::size_t>(shard.count)) == shard.index) {
      points.push_back(std::move(all[i]));
      index.push_back(i);
    }
  std::vector<Json> results(points.size());
  Progress progress("sweep points", points.size(), quiet);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < points.size(); i = next++) {
      try {
        throw_if_interrupted();
        const Scenario point = scenario_from_json(points[i].doc, sc.file, directory);
        results[i] = {{"index", index[i]}, {"values", points[i].values}, {"result", run_scenario(point)}};
        progress.advance();
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  Json out = {{"iowall_result", result_marker("sweep")}, {"iowall_version", "0.1.0"}, {"scenario", sc.name},
              {"points", results}};
  if (shard.count > 1) out["shard"] = fmt::format("{}/{}", shard.index, shard.count);
  return out;
}

Json merge_sweeps(const std::vector<Json>& parts, const std::string& where) {
  if (parts.empty()) throw InputError(where, "", "no sweep results to merge");
  std::map<std::size_t, Json> points;
  for (const Json& p : parts) {
    if (!p.contains("points") || p.value("scenario", "") != parts[0].value("scenario", "") ||
        p.value("iowall_version", "") != parts[0].value("iowall_version", ""))
      throw InputError(where, "", "the files are not parts of one sweep of one iowall version");
    for (const Json& pt : p["points"]) {
      const std::size_t i = pt.at("index").get<std::size_t>();
      if (points.count(i)) throw InputError(where, "", fmt::format("point {} appears in two parts", i));
      points[i] = pt;
    }
  }
  Json list = Json::array();
  std::size_t expect = 0;
  for (auto& [i, pt] : points) {
    if (i != expect++) throw InputError(where, "", fmt::format("point {} is missing: merge every shard", expect - 1));
    list.push_back(std::move(pt));
  }
  return {{"iowall_result", result_marker("sweep")},
          {"iowall_version", parts[0]["iowall_version"]},
          {"scenario", parts[0]["scenario"]},
          {"points", list}};
}

}  // namespace iowall
