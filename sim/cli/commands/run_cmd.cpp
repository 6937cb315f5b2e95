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
#include "sim/run/uncertainty.hpp"
#include "sim/cli/uncertainty_option.hpp"
#include "sim/cli/output_path.hpp"
#include "sim/cli/option_values.hpp"

namespace iowall {
namespace {

struct RunArgs {
  std::string scenario = "scenarios/default.json";
  std::vector<std::string> sets;
  std::optional<std::uint64_t> seed;
  std::string trace;
  std::size_t trace_events = 1'000'000;
  std::string series;
  bool stats = false;
  std::string chart;
  int jobs = 1;
  UncertaintyOption uncertainty;
  ReportOption report;
  OutputOptions out;
};

void setup_run(CLI::App& root, CliState&) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = root.add_subcommand("run", "simulate a scenario: every data path it names, one table and JSON");
  cmd->add_option("scenario", args->scenario, "scenario JSON file (default: the embedded default scenario)");
  cmd->add_option("--set", args->sets, "override a field: POINTER=VALUE, e.g. --set '/workload/io_size=\"4 KiB\"'");
  add_seed_option(*cmd, args->seed, "random seed, 0 to 2^64-1 (overrides the scenario's)");
  cmd->add_option("--trace", args->trace, "write a Chrome trace-event JSON of every path (opens in Perfetto)")->check(writable_output());
  cmd->add_option("--trace-events", args->trace_events,
                  "slices the trace keeps, shared equally among the paths; later ones are dropped and counted "
                  "(default 1000000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000'000}));
  cmd->add_option("--series", args->series, "also record each resource's utilization per period, e.g. \"1 ms\"");
  cmd->add_flag("--stats", args->stats, "also list every statistic in the normal and csv outputs");
  cmd->add_option("--chart", args->chart, "write an SVG chart of throughput and CPU per path (needs gnuplot)")->check(writable_output());
  args->uncertainty.add_to(*cmd);
  cmd->add_option("--jobs,-j", args->jobs, "runs in parallel for --uncertainty and --sensitivity")->check(CLI::Range(1, 1024));
  args->report.add_to(*cmd);
  args->out.add_to(*cmd);
  cmd->callback([args] {
    args->report.check();
    args->uncertainty.check();
    std::vector<std::string> sets = args->sets;
    if (args->seed) sets.push_back(fmt::format("/seed={}", *args->seed));
    const Scenario sc = load_scenario(args->scenario, sets);
    RunOptions options;
    options.trace_file = args->trace;
    options.trace_events = args->trace_events;
    options.progress = !args->out.quiet;
    if (!args->series.empty()) {
      const ParseResult r = parse_time(args->series, options.series_period);
      if (!r.ok || !options.series_period.is_positive())
        throw InputError("", "--series", r.ok ? "the period must be positive" : r.error);
    }
    RunResult result;
    if (args->uncertainty.any()) {
      // Under mpirun the ranks share the samples; rank 0 writes the result.
      UncertaintyOptions u = args->uncertainty.options(args->jobs, args->out.quiet);
      u.world = mpi::init_if_launched();
      result = run_with_uncertainty(sc, u, options);
      mpi::finalize(u.world);
      if (u.world.rank != 0) return;
    } else {
      result = run_scenario(sc, options);
    }
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

IOWALL_REGISTER_COMMAND(10, setup_run);

}  // namespace iowall
