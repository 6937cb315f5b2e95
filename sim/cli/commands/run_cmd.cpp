// `iowall run SCENARIO`: one simulation per data path of the scenario.
#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/report_option.hpp"
#include "sim/core/error.hpp"
#include "sim/report/run_chart.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/report/run_table.hpp"
#include "sim/report/stats_writers.hpp"
#include "sim/run/runner.hpp"
#include "sim/cli/output_path.hpp"
#include "sim/cli/option_values.hpp"

namespace iowall {
namespace {

struct RunArgs {
  std::string scenario = "scenarios/default.json";
  std::vector<std::string> sets;
  std::optional<std::uint64_t> seed;
  std::string trace;
  std::string series;
  bool stats = false;
  std::string chart;
  ReportOption report;
  OutputOptions out;
};

void setup(CLI::App& root, CliState&) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = root.add_subcommand("run", "simulate a scenario: every data path it names, one table and JSON");
  cmd->add_option("scenario", args->scenario, "scenario JSON file (default: the embedded default scenario)");
  cmd->add_option("--set", args->sets, "override a field: POINTER=VALUE, e.g. --set '/workload/io_size=\"4 KiB\"'");
  add_seed_option(*cmd, args->seed, "random seed, 0 to 2^64-1 (overrides the scenario's)");
  cmd->add_option("--trace", args->trace, "write a Chrome trace-event JSON of the first path (opens in Perfetto)")->check(writable_output());
  cmd->add_option("--series", args->series, "also record each resource's utilization per period, e.g. \"1 ms\"");
  cmd->add_flag("--stats", args->stats, "also list every statistic in the normal and csv outputs");
  cmd->add_option("--chart", args->chart, "write an SVG chart of throughput and CPU per path (needs gnuplot)")->check(writable_output());
  args->report.add_to(*cmd);
  args->out.add_to(*cmd);
  cmd->callback([args] {
    args->report.check();
    std::vector<std::string> sets = args->sets;
    if (args->seed) sets.push_back(fmt::format("/seed={}", *args->seed));
    const Scenario sc = load_scenario(args->scenario, sets);
    RunOptions options;
    options.trace_file = args->trace;
    options.progress = !args->out.quiet;
    if (!args->series.empty()) {
      const ParseResult r = parse_time(args->series, options.series_period);
      if (!r.ok || options.series_period.ps <= 0)
        throw InputError("", "--series", r.ok ? "the period must be positive" : r.error);
    }
    const RunResult result = run_scenario(sc, options);
    args->report.write(result, "iowall run " + args->scenario);
    const std::string chart_note = args->chart.empty() ? std::string() : render_run_chart(result, args->chart);
    emit(
        args->out,
        [&] {
          std::string text = run_table(result);
          if (!chart_note.empty()) text += "chart: " + chart_note + "\n";
          if (args->stats)
            for (const PathResult& p : result.paths)
              text += fmt::format("\nstatistics, {}\n{}", p.label, stats_text(p.stats));
          return text;
        },
        to_json(result),
        [&] {
          std::string csv = run_csv(result);
          if (args->stats)
            for (const PathResult& p : result.paths) csv += "\n" + stats_csv(p.stats, "path,", p.label + ",");
          return csv;
        });
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(10, setup);

}  // namespace iowall
