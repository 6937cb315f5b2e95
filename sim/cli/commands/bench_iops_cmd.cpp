// `iowall bench iops`: simulation speed of the NVMe stack at its busiest. The scenario
// (default scenarios/bench-iops-8ssd.json) reads 4 KiB at random from eight Gen5 drives
// of 2.5 M IOPS each, one per GPU, with 16 threads x QD64 per GPU; every I/O crosses the
// NVMe queues, doorbells, the NAND media and the PCIe hops at chunk fidelity. Each data
// path runs `--repeats` times, the paths alternated so that a slow stretch of a shared
// machine lands on all of them. The figure of merit is wall seconds per simulated second
// (the topology build included), against a target: the run must simulate one second in
// at most `--target` seconds. CPU seconds of this process are shown beside it.
#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "measure/calibration_points.hpp"
#include "sim/cli/bench_clock.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/option_values.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/run/runner.hpp"

namespace iowall {
namespace {

struct IopsArgs {
  std::string scenario = "scenarios/bench-iops-8ssd.json";
  std::string size = "1600 MiB";
  std::string paths = "gpu_direct,gpu_initiated";
  int repeats = 3;
  double target = 20;
  OutputOptions out;
};

Json one_run(const IopsArgs& a, const std::string& path, int repeat) {
  const Scenario sc = load_scenario(a.scenario, {fmt::format("/workload/size=\"{}\"", a.size),
                                                 fmt::format("/paths=[\"{}\"]", path)});
  RunResult r;
  const Clocks c = timed([&] { r = run_scenario(sc); });
  const PathMetrics& m = r.paths.at(0).metrics;
  const double sim_s = m.last_done_s;
  const double ios = static_cast<double>(m.ios), events = static_cast<double>(m.events);
  return {{"path", path},          {"repeat", repeat},
          {"simulated_iops", m.iops},
          {"ios", ios},            {"simulated_s", sim_s},
          {"events", events},      {"events_per_io", events / ios},
          {"wall_s", c.wall},      {"cpu_s", c.cpu},
          {"wall_s_per_simulated_s", c.wall / sim_s},
          {"cpu_s_per_simulated_s", c.cpu / sim_s},
          {"wall_us_per_io", c.wall / ios * 1e6}};
}

Json summarize_iops(const Json& runs, const std::vector<std::string>& paths, double target) {
  Json out = Json::array();
  for (const std::string& p : paths) {
    std::vector<double> wall, cpu;
    Json first;
    for (const Json& r : runs)
      if (r["path"] == p) {
        wall.push_back(r["wall_s_per_simulated_s"].get<double>());
        cpu.push_back(r["cpu_s_per_simulated_s"].get<double>());
        if (first.is_null()) first = r;
      }
    const double med = calib::median(wall);
    out.push_back({{"path", p},
                   {"simulated_iops", first["simulated_iops"]},
                   {"events_per_io", first["events_per_io"]},
                   {"wall_s_per_simulated_s_median", med},
                   {"wall_s_per_simulated_s_max", *std::max_element(wall.begin(), wall.end())},
                   {"cpu_s_per_simulated_s_median", calib::median(cpu)},
                   {"target_wall_s_per_simulated_s", target},
                   {"met", med <= target}});
  }
  return out;
}

std::string iops_text_of(const Json& j) {
  std::string t = fmt::format("{:<14} {:>6} {:>12} {:>10} {:>8} {:>8} {:>12} {:>12}\n", "path", "repeat",
                              "sim IOPS", "sim s", "wall s", "CPU s", "wall/sim s", "events/IO");
  for (const Json& r : j["runs"])
    t += fmt::format("{:<14} {:>6} {:>11.2f}M {:>10.4f} {:>8.2f} {:>8.2f} {:>12.1f} {:>12.2f}\n",
                     r["path"].get<std::string>(), r["repeat"].get<int>(), r["simulated_iops"].get<double>() / 1e6,
                     r["simulated_s"].get<double>(), r["wall_s"].get<double>(), r["cpu_s"].get<double>(),
                     r["wall_s_per_simulated_s"].get<double>(), r["events_per_io"].get<double>());
  for (const Json& s : j["summary"])
    t += fmt::format("{}: median {:.1f} wall s (max {:.1f}, {:.1f} CPU s) per simulated second at {:.2f} M IOPS; "
                     "target {:.0f}: {}\n",
                     s["path"].get<std::string>(), s["wall_s_per_simulated_s_median"].get<double>(),
                     s["wall_s_per_simulated_s_max"].get<double>(), s["cpu_s_per_simulated_s_median"].get<double>(),
                     s["simulated_iops"].get<double>() / 1e6, s["target_wall_s_per_simulated_s"].get<double>(),
                     s["met"].get<bool>() ? "met" : "NOT met");
  return t;
}

void setup_bench_iops(CLI::App& root, CliState&) {
  CLI::App* bench = nullptr;
  for (CLI::App* sub : root.get_subcommands([](CLI::App* s) { return s->get_name() == "bench"; })) bench = sub;
  if (!bench) return;
  auto a = std::make_shared<IopsArgs>();
  CLI::App* cmd = bench->add_subcommand(
      "iops", "chunk-fidelity speed at 20 M IOPS: 4 KiB random reads from 8 NVMe at 2.5 M IOPS each, per data path");
  cmd->add_option("--scenario", a->scenario, "scenario to time (its size and paths are overridden)");
  cmd->add_option("--size", a->size, "bytes each GPU reads");
  cmd->add_option("--paths", a->paths, "comma-separated data paths, run alternately");
  cmd->add_option("--repeats", a->repeats, "runs of each path")->check(CLI::Range(1, 100));
  cmd->add_option("--target", a->target, "most wall seconds allowed per simulated second")
      ->check(finite_number())
      ->check(CLI::Range(1e-6, 1e9));
  a->out.add_to(*cmd, false);
  cmd->callback([a] {
    std::vector<std::string> paths;
    std::stringstream list(a->paths);
    for (std::string p; std::getline(list, p, ',');)
      if (!p.empty()) paths.push_back(p);
    if (paths.empty()) throw InputError("", "--paths", "at least one data path name");
    Json runs = Json::array();
    for (int r = 1; r <= a->repeats; ++r)
      for (const std::string& p : paths)
        runs.push_back(with_option_pointers([&] { return one_run(*a, p, r); },
                                            {{"/workload/size", "--size"}, {"/paths", "--paths"}}));
    const Json j = {{"benchmark", "iops_8ssd"},
                    {"scenario", a->scenario},
                    {"size_per_gpu", a->size},
                    {"runs", runs},
                    {"summary", summarize_iops(runs, paths, a->target)}};
    emit(a->out, [&] { return iops_text_of(j); }, j);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(92, setup_bench_iops);

}  // namespace iowall
