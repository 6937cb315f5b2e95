#include "sim/run/sweep.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

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

Json run_sweep(const Scenario& sc, const std::vector<SweepAxis>& axes, int jobs, const std::string& directory) {
  const std::vector<SweepPoint> points = sweep_points(sc, axes);
  std::vector<Json> results(points.size());
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < points.size(); i = next++) {
      try {
        const Scenario point = scenario_from_json(points[i].doc, sc.file, directory);
        results[i] = {{"values", points[i].values}, {"result", run_scenario(point)}};
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
  return {{"iowall_version", "0.1.0"}, {"scenario", sc.name}, {"points", results}};
}

}  // namespace iowall
