// The report's validation section: measured medians with their spread against the
// simulated points, the error summary, and what limited each simulated point.
#include <catch2/catch.hpp>

#include "sim/report/html_report.hpp"
#include "sim/report/validate_result_json.hpp"
#include "tests/report/report_test_util.hpp"
#include "tests/report/validation_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

TEST_CASE("report of a validation: measured vs simulated with the spread of the repeats", "[report][validate]") {
  const nlohmann::json v = small_validation_result();
  REQUIRE(v["iowall_result"]["kind"] == "validate");
  REQUIRE(v["points"].size() == 6);
  CHECK(v["points"][0]["measured_max_Bps"].get<double>() > v["points"][0]["measured_min_Bps"].get<double>());
  const std::string html = html_report({result_from_json(v, "validation.json")});
  CHECK(html.find("<h2>Validation: test-disk</h2>") != std::string::npos);
  CHECK(html.find("Held out: 3 simulated points, median |error|") != std::string::npos);
  CHECK(html.find("measured: median, bar = min-max of the repeats") != std::string::npos);
  CHECK(html.find("simulated, held out") != std::string::npos);
  CHECK(html.find("simulated, in the fit subset") != std::string::npos);
  CHECK(html.find("throughput (GB/s, log scale)") != std::string::npos);
  CHECK(html.find("measured min - max (GB/s)") != std::string::npos);
  CHECK(html.find("chunk (discrete events per transfer chunk") != std::string::npos);
  CHECK(count_of(html, "<figure class=\"chart\"") == 1);
  // Measured, held-out and fitted series: three data series and three legend entries.
  CHECK(count_of(html, "id=\"c1-gnuplot_plot_") == 6);
}

TEST_CASE("a validation's typed result comes back equal from its JSON", "[report][validate][result]") {
  const nlohmann::json v = small_validation_result();
  const ValidateResult r = validate_result_from_json(nlohmann::json::parse(v.dump()), "validation.json");
  REQUIRE(r.points.size() == 6);
  CHECK(r.full_profile == "test-disk");
  CHECK(r.held_out.points == 3);
  int predicted = 0;
  for (const ValidatePoint& p : r.points) predicted += p.prediction ? 1 : 0;
  CHECK(predicted == 6);
  CHECK(to_json(r).dump() == v.dump());
  CHECK(validate_result_from_json(to_json(r), "again.json") == r);
  nlohmann::json bad = v;
  bad["points"][2]["spread"] = "wide";
  CHECK_THROWS_WITH(validate_result_from_json(bad, "v.json"), "v.json: /points/2/spread: not a number");
}
