// A real browser opens a report made by the test suite: Debian's chromium, headless.
// The page's own script checks every chart plotted data and every image loaded and
// marks <body data-check>; the test reads the DOM after load, the console (script
// errors, the self-check's failures) and a screenshot.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "sim/report/gnuplot.hpp"
#include "tests/report/report_test_util.hpp"
#include "tests/report/validation_fixture.hpp"

using namespace iowall::testing;

namespace {

std::string chromium_command(const std::string& dir) {
  // Root (CI containers) needs --no-sandbox; a private profile keeps runs apart.
  return "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=" + dir +
         "/profile --enable-logging=stderr --v=0 --virtual-time-budget=5000 ";
}

// Console messages chromium logs ("...:CONSOLE:12] "text", source: ..."): script errors,
// uncaught exceptions and console.error all land here; a good page logs nothing.
std::vector<std::string> console_lines(const std::string& log) {
  std::vector<std::string> out;
  std::stringstream ss(log);
  std::string line;
  while (std::getline(ss, line))
    if (line.find(":CONSOLE") != std::string::npos) out.push_back(line);
  return out;
}

// Loads `url` in chromium and reads the DOM after its scripts ran (dir/dom.html, the
// console in dir/dom.log): the page counted `charts` charts, its self-check passed, and
// nothing was logged to the console.
void check_rendered(const std::string& dir, const std::string& url, std::size_t charts) {
  REQUIRE(std::system((chromium_command(dir) + "--dump-dom '" + url + "' >" + dir + "/dom.html 2>" + dir +
                       "/dom.log").c_str()) == 0);
  const std::string dom = slurp(dir + "/dom.html");
  INFO(dom.substr(0, std::min<std::size_t>(dom.size(), 600)));
  CHECK(dom.find("data-charts=\"" + std::to_string(charts) + "\"") != std::string::npos);
  CHECK(dom.find("data-check=\"ok\"") != std::string::npos);
  const auto console = console_lines(slurp(dir + "/dom.log"));
  std::string joined;
  for (const auto& line : console) joined += line + "\n";
  INFO("console:\n" << joined);
  CHECK(console.empty());
}

}  // namespace

TEST_CASE("chromium renders a report without script errors, broken images or empty charts", "[browser]") {
  if (!iowall::on_path("chromium")) {
    WARN("chromium is not installed (Debian package chromium; scripts/deps.sh --with-optional installs it): skipped");
    return;
  }
  REQUIRE(iowall::on_path("gnuplot"));  // the point is to check the charts
  const std::string dir = scratch_dir("browser");
  write_text(dir + "/tiny.json", tiny_scenario());
  REQUIRE(run_iowall("run " + dir + "/tiny.json --output-format json --output " + dir + "/run.json").code == 0);
  REQUIRE(run_iowall("sweep " + dir + "/tiny.json --axis '/workload/io_size=256 KiB,1 MiB,4 MiB' --output-format json "
                     "--output " + dir + "/sweep.json").code == 0);
  REQUIRE(run_iowall("plan checkpoint scenarios/checkpoint-1024-h100-50tb.json --output-format json --output " + dir +
                     "/plan.json").code == 0);
  write_text(dir + "/validate.json", small_validation_result().dump());
  const CliResult rep = run_iowall("report " + dir + "/run.json " + dir + "/sweep.json " + dir + "/plan.json " + dir +
                                   "/validate.json -o " + dir + "/report.html");
  INFO(rep.output());
  REQUIRE(rep.code == 0);
  const std::string url = "file://" + dir + "/report.html";

  // Run, three sweep charts, plan, validation: eight charts, each checked by the page.
  check_rendered(dir, url, 8);

  REQUIRE(std::system((chromium_command(dir) + "--window-size=1200,3000 --screenshot=" + dir + "/report.png '" + url +
                       "' >" + dir + "/shot.log 2>&1").c_str()) == 0);
  const std::string png = slurp(dir + "/report.png");
  REQUIRE(png.size() > 10'000);
  CHECK(png.compare(1, 3, "PNG") == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("the page's self-check catches a chart with no data", "[browser]") {
  if (!iowall::on_path("chromium")) {
    WARN("chromium is not installed: skipped");
    return;
  }
  // A report whose chart lost its data series (only the legend entry is left), as a
  // broken writer would produce it, must fail in the browser.
  const std::string dir = scratch_dir("browser_empty");
  REQUIRE(run_iowall("plan checkpoint scenarios/checkpoint-1024-h100-50tb.json --report " + dir + "/good.html").code == 0);
  std::string html = slurp(dir + "/good.html");
  // Drop the data groups: gnuplot's untitled series are the groups without text.
  for (const char* id : {"<g id=\"c1-gnuplot_plot_1\" >", "<g id=\"c1-gnuplot_plot_2\" >"}) {
    const auto start = html.find(id);
    REQUIRE(start != std::string::npos);
    const auto end = html.find("\t</g>", start);
    REQUIRE(end != std::string::npos);
    html.erase(start, end + 5 - start);
  }
  write_text(dir + "/broken.html", html);
  REQUIRE(std::system((chromium_command(dir) + "--dump-dom 'file://" + dir + "/broken.html' >" + dir + "/dom.html 2>" +
                       dir + "/dom.log").c_str()) == 0);
  const std::string dom = slurp(dir + "/dom.html");
  CHECK(dom.find("data-check=\"failed: chart-1: no data plotted") != std::string::npos);
  CHECK_FALSE(console_lines(slurp(dir + "/dom.log")).empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("chromium renders the default scenario's intervals and tornado charts", "[browser][uncertainty]") {
  if (!iowall::on_path("chromium")) {
    WARN("chromium is not installed: skipped");
    return;
  }
  REQUIRE(iowall::on_path("gnuplot"));
  // The default scenario as shipped, its restore shrunk to 256 MiB per GPU to keep the
  // 8 samples and the sensitivity runs quick.
  const std::string dir = scratch_dir("browser_uncertainty");
  const CliResult run = run_iowall("run scenarios/default.json --set '/workload/size=\"256 MiB\"' --uncertainty 8 "
                                   "--sensitivity --jobs 2 --output-format json --output " + dir + "/run.json");
  INFO(run.output());
  REQUIRE(run.code == 0);
  const CliResult rep = run_iowall("report " + dir + "/run.json -o " + dir + "/report.html");
  INFO(rep.output());
  REQUIRE(rep.code == 0);
  const std::string html = slurp(dir + "/report.html");
  CHECK(html.find("<h3>Prediction intervals</h3>") != std::string::npos);
  CHECK(html.find("<h3>Sensitivity: which inputs decide the answer</h3>") != std::string::npos);
  // One tornado per data path (each path's throughput moves with the drives' bandwidth),
  // and the throughput chart with its error bars.
  CHECK(count_of(html, "<figcaption>Tornado chart for ") == 5);
  CHECK(count_of(html, "(error bars)") == 1);
  const std::size_t figures = count_of(html, "<figure class=\"chart\"");
  REQUIRE(figures >= 8);

  const std::string url = "file://" + dir + "/report.html";
  check_rendered(dir, url, figures);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a plan's report shows its intervals and its tornado chart, and chromium renders it", "[browser][uncertainty][plan]") {
  // The shipped 50 TB plan with its storage bandwidth given a 10% spread and the request
  // latency a range that does not bind: 40 samples and the one-at-a-time runs.
  const std::string dir = scratch_dir("browser_plan_uncertainty");
  const CliResult plan = run_iowall(
      "plan checkpoint scenarios/checkpoint-1024-h100-50tb.json --storage-bw '1.1 TB/s +- 10%' "
      "--request-latency '20 us .. 40 us' --uncertainty 40 --sensitivity --jobs 2 --output-format json --output " +
      dir + "/plan.json --report " + dir + "/plan.html");
  INFO(plan.output());
  REQUIRE(plan.code == 0);
  const std::string html = slurp(dir + "/plan.html");
  // The same page from the result file.
  REQUIRE(run_iowall("report " + dir + "/plan.json -o " + dir + "/again.html").code == 0);
  CHECK(count_of(html, "<figure") == count_of(slurp(dir + "/again.html"), "<figure"));
  CHECK(html.find("<h3>Prediction intervals</h3>") != std::string::npos);
  CHECK(html.find("<h3>Sensitivity: which inputs decide the answer</h3>") != std::string::npos);
  // The save and restore rows and the overhead carry their intervals as text.
  CHECK(html.find("<th>last rank done, median [5% .. 95%]</th>") != std::string::npos);
  CHECK(html.find("of wall time; median [5% .. 95%] ") != std::string::npos);
  for (const char* figure : {"save, last rank done (s)", "restore, last rank done (s)", "overhead (% of wall time)"})
    CHECK(html.find(std::string("<td>") + figure + "</td>") != std::string::npos);
  // Inputs: the bandwidth's spread moves the overhead, the latency's range does not, so the
  // one tornado chart (ranked by the overhead) has one bar.
  CHECK(html.find("plan.storage_bw") != std::string::npos);
  CHECK(html.find("plan.request_latency") != std::string::npos);
  if (!iowall::on_path("gnuplot")) return;  // no charts: the tables above are the whole page
  CHECK(count_of(html, "<figcaption>Tornado chart for checkpoint-1024-h100-50tb: how far overhead moves") == 1);
  // The overhead chart with the plan's error bar, and the save and restore chart.
  CHECK(count_of(html, "(error bars)") == 2);
  CHECK(html.find("this plan: median and 90% interval over the samples") != std::string::npos);
  const std::size_t figures = count_of(html, "<figure class=\"chart\"");
  CHECK(figures == 3);

  if (!iowall::on_path("chromium")) {
    WARN("chromium is not installed: the rendering is not checked");
    return;
  }
  check_rendered(dir, "file://" + dir + "/plan.html", figures);
  std::filesystem::remove_all(dir);
}
