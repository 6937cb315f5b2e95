// What limited a run: the run's own limiter when it names one, else the busiest
// resource of its statistics, and the page says which of the two it shows.
#include <catch2/catch.hpp>

#include "sim/report/html_report.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/run_result_json.hpp"

using namespace iowall;

namespace {

nlohmann::json minimal_run(bool with_limiter) {
  nlohmann::json m = {{"throughput_GBps", 12.5}, {"cpu_cores_busy", 0.5}, {"latency_p99_us", 80.0}};
  if (with_limiter) m["limited_by"] = {{"resource", "nvme0/controller"}, {"utilization", 0.97}};
  return {{"iowall_result", result_marker("run")},
          {"scenario", "hand-made"},
          {"topology", "t"},
          {"fidelity", "chunk"},
          {"paths", {"gpu_direct"}},
          {"metrics", {{"gpu_direct", m}}},
          {"stats",
           {{"gpu_direct",
             {{"sw0.dn1--nvme0.up/b>a/busy", {{"mean", 0.4}, {"capacity", 1}, {"unit", "units"}}},
              {"nvme0/media_read/busy", {{"mean", 3.6}, {"capacity", 4}, {"unit", "units"}}},
              {"nvme0/media_read/jobs", {{"value", 10}, {"unit", "jobs"}}}}}}}};
}

}  // namespace

TEST_CASE("the limiter is the run's own, or derived from the busiest resource and said so", "[report]") {
  const nlohmann::json without = minimal_run(false);
  const RunResult with_run = run_result_from_json(minimal_run(true), "with.json");
  const RunResult without_run = run_result_from_json(without, "without.json");
  const PathResult& w = with_run.paths.at(0);
  const PathResult& wo = without_run.paths.at(0);
  CHECK(report::limiter_text(w.metrics, w.stats) == "nvme0/controller (97% busy)");
  CHECK(report::limiter_text(wo.metrics, wo.stats) ==
        "nvme0/media_read (90% busy; derived by the report from the busiest resource, the run named none)");
  CHECK(report::limiter_text(PathMetrics{}, StatsResult{}).find("not reported") == 0);

  const auto links = report::link_utilization(wo.stats);
  REQUIRE(links.size() == 1);  // only link directions ("a--b"), not the SSD's media
  CHECK(links[0].first == "sw0.dn1--nvme0.up/b>a");
  CHECK(links[0].second == Approx(0.4));

  const std::string html = html_report({result_from_json(without, "hand-made.json")});
  CHECK(html.find("derived by the report from the busiest resource") != std::string::npos);
  CHECK(html.find("<td>sw0.dn1--nvme0.up/b&gt;a</td>") != std::string::npos);
}
