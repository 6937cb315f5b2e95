// `iowall sweep SCENARIO [--axis POINTER=v1,v2,...] [--jobs N]`: every point of the
// sweep axes, in parallel; the output is the same for any --jobs.
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/report_option.hpp"
#include "sim/core/error.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/json_limits.hpp"
#include "sim/run/mpi_ranks.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/report/run_table.hpp"
#include "sim/run/sweep.hpp"
#include "sim/run/uncertainty.hpp"
#include "sim/cli/uncertainty_option.hpp"
#include "sim/report/uncertainty_table.hpp"

namespace iowall {
namespace {

std::string sweep_table(const SweepResult& r) {
  std::string out = fmt::format("{}: {} points\n", r.scenario, r.points.size());
  for (const SweepPointResult& p : r.points) {
    std::string values;  // the axis values as given
    for (const auto& [k, v] : p.values.items()) values += fmt::format("{}={} ", k, v.dump());
    for (const PathResult& path : p.result.paths) {
      const PathMetrics& m = path.metrics;
      out += fmt::format("  {:<40} {:<11} {:8.2f} GB/s  p99 {:9.1f} us  CPU {:5.2f} cores\n", values, path.label,
                         m.throughput_GBps, m.latency_p99_us, m.cpu_cores_busy);
      // --uncertainty: the point's 90% intervals under its nominal figures.
      if (const auto& v = path.intervals)
        out += fmt::format("  {:<40} {:<11} 90%: {} GB/s  p99 {} us  CPU {} cores\n", "", "",
                           interval_text(v->throughput_GBps, 2), interval_text(v->latency_p99_us, 1),
                           interval_text(v->cpu_cores_busy, 2));
    }
  }
  if (!r.points.empty() && r.points.front().result.uncertainty) {
    const UncertaintySummary& u = *r.points.front().result.uncertainty;
    out += fmt::format("90% intervals: median [5% .. 95%] over {} samples per point (seed {}); inputs and notes per "
                       "point in the JSON\n",
                       u.samples, u.seed);
  }
  return out;
}

void setup_sweep(CLI::App& root, CliState&) {
  struct Args {
    std::string scenario = "scenarios/default.json";
    std::vector<std::string> axes, sets, merge;
    std::string shard;
    int jobs = 1;
    std::size_t max_points = kDefaultMaxSweepPoints;
    UncertaintyOption uncertainty;
    ReportOption report;
    OutputOptions out;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = root.add_subcommand("sweep", "run every point of a scenario's sweep axes");
  cmd->add_option("scenario", args->scenario, "scenario JSON file");
  cmd->add_option("--axis", args->axes, "an axis POINTER=v1,v2,... (values as JSON, else strings); replaces the scenario's");
  cmd->add_option("--set", args->sets, "override a field: POINTER=VALUE");
  cmd->add_option("--jobs,-j", args->jobs, "points run in parallel")->check(CLI::Range(1, 1024));
  cmd->add_option("--max-points", args->max_points, "refuse sweeps of more points than this")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  cmd->add_option("--shard", args->shard, "run only shard i/N of the points (a Slurm array task: i = task id)");
  cmd->add_option("--merge", args->merge, "join shard outputs (JSON files) into the serial run's output")
      ->check(CLI::ExistingFile);
  args->uncertainty.add_to(*cmd);
  args->report.add_to(*cmd);
  args->out.add_to(*cmd);
  cmd->callback([args] {
    args->report.check();
    args->uncertainty.check();
    if (!args->merge.empty()) {
      std::vector<Json> parts;
      for (const auto& f : args->merge) parts.push_back(load_json(f).json);
      const SweepResult r = merge_sweeps(parts, args->merge);
      args->report.write(r, "iowall sweep --merge");
      emit(args->out, [&] { return sweep_table(r); }, to_json(r), [&] { return sweep_csv(r); });
      return;
    }
    // Under mpirun every rank runs one shard and rank 0 writes the joined result.
    const mpi::World world = mpi::init_if_launched();
    Shard shard = args->shard.empty() ? Shard{} : parse_shard(args->shard, "--shard");
    if (world.size > 1) {
      if (!args->shard.empty()) throw InputError("", "--shard", "not with mpirun: the ranks are the shards");
      shard = Shard{world.rank, world.size};
    }
    const Scenario sc = load_scenario(args->scenario, args->sets);
    std::vector<SweepAxis> axes = sc.sweep;
    if (!args->axes.empty()) {
      axes.clear();
      for (const std::string& a : args->axes) {
        const auto eq = a.find('=');
        if (eq == std::string::npos || eq == 0)
          throw InputError("", "--axis", fmt::format("\"{}\" is not POINTER=v1,v2,...", quote_text(a, 60)));
        SweepAxis axis{a.substr(0, eq), {}};
        std::stringstream ss(a.substr(eq + 1));
        std::string item;
        while (std::getline(ss, item, ',')) {
          try {
            Json v;
            if (const auto bad = parse_json_checked(item, v)) throw InputError("", "--axis", bad->message);
            axis.values.push_back(std::move(v));
          } catch (const Json::exception&) {  // not JSON, or a number beyond a double
            axis.values.push_back(item);
          }
        }
        try {
          if (!sc.doc.contains(Json::json_pointer(axis.pointer)))
            throw InputError("", "--axis", fmt::format("{} does not exist in the scenario", quote_text(axis.pointer, 60)));
        } catch (const Json::exception&) {
          throw InputError("", "--axis", fmt::format("\"{}\" is not a JSON pointer", quote_text(axis.pointer, 60)));
        }
        axes.push_back(std::move(axis));
      }
    }
    if (axes.empty()) throw InputError(args->scenario, "/sweep", "the scenario has no sweep axes and no --axis was given");
    const std::string dir = std::filesystem::path(args->scenario).parent_path().string();
    const bool from_file = args->axes.empty();
    const SweepPoints points(sc, axes, args->max_points, from_file ? args->scenario : std::string(),
                             from_file ? "/sweep" : "--axis");
    std::optional<UncertaintyOptions> u;
    if (args->uncertainty.any()) {
      u = args->uncertainty.options(1, true);  // a point's samples run on its own thread
    }
    SweepResult r = run_sweep(sc, points, args->jobs, dir, shard, args->out.quiet || world.size > 1, u ? &*u : nullptr);
    if (world.size > 1) {
      const std::vector<std::string> parts = mpi::gather(to_json(r).dump(), world);
      if (world.rank == 0) {
        std::vector<Json> docs;
        std::vector<std::string> names;
        for (const auto& p : parts) {
          docs.push_back(Json::parse(p));
          names.push_back(fmt::format("mpi rank {}", names.size()));
        }
        r = merge_sweeps(docs, names);
      }
      mpi::finalize(world);
      if (world.rank != 0) return;
    }
    args->report.write(r, "iowall sweep " + args->scenario);
    emit(args->out, [&] { return sweep_table(r); }, to_json(r), [&] { return sweep_csv(r); });
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(15, setup_sweep);

}  // namespace iowall
