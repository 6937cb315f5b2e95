// `iowall plan checkpoint [SCENARIO] [--flags]`: checkpoint size, save and restore
// times, availability and losses, the optimal interval, inverse queries and a chart.
// `iowall bench plan`: how long the analytical answer takes.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/report_option.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/plan/plan_chart.hpp"
#include "sim/plan/plan_report.hpp"
#include "sim/report/plan_result_json.hpp"
#include "sim/cli/output_path.hpp"
#include "sim/cli/uncertainty_option.hpp"
#include "sim/plan/plan_uncertainty.hpp"
#include "sim/run/mpi_ranks.hpp"
#include "sim/report/uncertainty_table.hpp"

namespace iowall {
namespace {

using nlohmann::json;

const char* const kBoolKeys[] = {"save_gradients", "bounce_pipelined", "async", "levers"};

std::string flag_of(const std::string& key) {
  std::string f = "--" + key;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

struct PlanArgs {
  std::string scenario;
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
  std::string chart;
  int jobs = 1;
  UncertaintyOption uncertainty;
  ReportOption report;
  OutputOptions out;
};

struct ReadRequest {
  plan::PlanRequest q;
  plan::UncertainSettings uncertain;
  std::map<std::string, std::string> origin;
};

// Scenario settings first (origin FILE#/plan/key), flags on top (origin --flag). A value
// given with a spread plans at its nominal value; the request echoes it as given.
ReadRequest read_plan_request(const PlanArgs& a) {
  ReadRequest r;
  json settings = json::object();
  std::string name = "checkpoint";
  if (!a.scenario.empty()) settings = plan::settings_from_file(a.scenario, {}, r.origin, name);
  for (const auto& [k, v] : a.values)
    if (!v.empty()) settings[k] = v, r.origin[k] = flag_of(k);
  for (const auto& [k, v] : a.flags)
    if (v) settings[k] = true, r.origin[k] = flag_of(k);
  r.uncertain = plan::uncertain_settings(settings, r.origin);
  r.q = plan::request_from_settings(r.uncertain.nominal, r.origin);
  r.q.settings = settings;
  r.q.name = name;
  return r;
}

void setup_plan(CLI::App& root, CliState&) {
  CLI::App* plan = root.add_subcommand("plan", "capacity planning: how long, what it costs, what storage is needed");
  plan->require_subcommand(1);
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = plan->add_subcommand("checkpoint", "checkpoint size, save/restore times, availability, inverse queries");
  cmd->add_option("scenario", args->scenario, "scenario JSON with a \"plan\" object (flags override it)");
  for (const auto& [key, help] : plan::setting_keys()) {
    if (std::find(std::begin(kBoolKeys), std::end(kBoolKeys), key) != std::end(kBoolKeys)) {
      cmd->add_flag(flag_of(key), args->flags[key], help);
    } else {
      cmd->add_option(flag_of(key), args->values[key], help);
    }
  }
  cmd->add_option("--chart", args->chart, "write the overhead-vs-bandwidth chart (SVG) here (none without it)")->check(writable_output());
  args->uncertainty.add_to(*cmd, true, false);
  cmd->get_option("--uncertainty")
      ->description(
          "N samples of the plan: every setting given with a spread (--storage-bw \"800 GB/s +- 10%\", a range "
          "\"20 us .. 40 us\") and, with --node, every uncertain value of the node's topology and presets is drawn, "
          "the node re-simulated (two chunk-fidelity runs per sample) and the plan solved; reports the median and 90% "
          "interval of the save time, restore time and overhead. A --cluster description's bandwidths given with a "
          "spread are drawn too, and so are local-nvme's drive bandwidths (the one preset whose source gives ranges); "
          "other preset values are fixed unless a setting gives them with a spread. Under mpirun the ranks share the "
          "samples");
  cmd->add_option("--jobs,-j", args->jobs, "samples run in parallel for --uncertainty and --sensitivity")
      ->check(CLI::Range(1, 1024));
  args->report.add_to(*cmd);
  args->out.add_to(*cmd, false);
  cmd->callback([args] {
    args->report.check();
    args->uncertainty.check();
    const ReadRequest r = read_plan_request(*args);
    const plan::PlanRequest& q = r.q;
    // Under mpirun the ranks share the samples (as run and sweep do); rank 0 writes the
    // chart, the report and the result.
    const mpi::World world = args->uncertainty.any() ? mpi::init_if_launched() : mpi::World{};
    plan::PlanAnswer a = plan::answer(q);
    // A chart only where the user asked for one: nothing is written beside --output.
    if (!args->chart.empty() && world.rank == 0) a.chart = plan::render_chart(q, args->chart);
    PlanCheckpointResult result = plan::plan_result(q, a);
    if (args->uncertainty.any()) {
      UncertaintyOptions u = args->uncertainty.options(args->jobs, args->out.quiet);
      u.world = world;
      plan::add_uncertainty(q, r.uncertain, r.origin, u, result);
      mpi::finalize(world);
      if (world.rank != 0) return;
    }
    args->report.write(result, "iowall plan checkpoint " + (args->scenario.empty() ? std::string("(flags)") : args->scenario));
    emit(args->out, [&] { return plan::plan_table(q, a) + plan_uncertainty_text(result); }, to_json(result));
  });
}

IOWALL_REGISTER_COMMAND(40, setup_plan);

// A large question: 16,384 GPUs (tp 8, pp 16, dp 128, ZeRO-1), a 405B model, with both
// inverse queries; timed as the CLI answers it, minus parsing and printing.
plan::PlanRequest bench_request(int gpus) {
  json s = {{"params", "405e9"}, {"gpus", gpus}, {"tp", 8}, {"pp", 16}, {"zero", 1},
            {"storage_bw", "1 TB/s"}, {"target_overhead", "5%"}, {"window", "60 s"}};
  return plan::request_from_settings(s, {});
}

void setup_bench(CLI::App& root, CliState&) {
  CLI::App* bench = root.get_subcommand("bench");
  auto repeats = std::make_shared<int>(20);
  auto out = std::make_shared<OutputOptions>();
  CLI::App* cmd = bench->add_subcommand("plan", "time of the analytical checkpoint planner (target <= 50 ms)");
  cmd->add_option("--repeats", *repeats, "answers per GPU count (the median is reported)")->check(CLI::Range(1, 10000));
  out->add_to(*cmd, false);
  cmd->callback([repeats, out] {
    json rows = json::array();
    std::string text = "analytical checkpoint planner, median of the repeats (ms):\n"
                       "  plan = sizes, save/restore, availability; full = plan + bandwidth for 5% overhead + largest model for 60 s\n"
                       "   GPUs    plan ms    full ms   full min   full max\n";
    auto median_ms = [&](const std::function<void()>& f, std::vector<double>& ms) {
      for (int i = 0; i < *repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      std::sort(ms.begin(), ms.end());
      return ms[ms.size() / 2];
    };
    for (int gpus : {1024, 4096, 16384, 65536}) {
      const plan::PlanRequest q = bench_request(gpus);
      std::vector<double> plan_ms, full_ms;
      double sink = 0;
      const double p = median_ms([&] { sink += plan::solve(q.input, q.fidelity).total_bytes; }, plan_ms);
      const double f = median_ms([&] { sink += plan::answer(q).result.total_bytes; }, full_ms);
      if (!(sink > 0)) throw RunError("bench plan: empty answer");
      rows.push_back({{"gpus", gpus}, {"repeats", *repeats}, {"plan_median_ms", p}, {"full_median_ms", f},
                      {"full_min_ms", full_ms.front()}, {"full_max_ms", full_ms.back()}});
      text += fmt::format("{:>7} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f}\n", gpus, p, f, full_ms.front(), full_ms.back());
    }
    emit(*out, [&] { return text; }, json{{"benchmark", "plan_checkpoint"}, {"rows", rows}});
  });
}

IOWALL_REGISTER_COMMAND(91, setup_bench);

}  // namespace
}  // namespace iowall
