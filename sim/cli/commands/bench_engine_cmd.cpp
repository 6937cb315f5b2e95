// `iowall bench engine`: the classic hold model. N events pending; each event, when
// it fires, schedules one successor at now + Exp(mean). Reports events per second of
// wall time and peak resident memory per pending event.
#include <chrono>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/core/event_queue.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/rng.hpp"

namespace iowall {
namespace {

// Peak resident set size of this process in bytes (VmHWM), 0 if unknown.
std::int64_t peak_rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  return 0;
}
std::int64_t current_rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  return 0;
}

struct HoldModel {
  EventQueue queue;
  Rng rng{1, "hold"};
  Time mean = us(1);
  void fire() {
    queue.schedule_in(rng.exponential(mean), [this] { fire(); });
  }
};

void setup_bench_engine(CLI::App& root, CliState&) {
  CLI::App* bench = root.add_subcommand("bench", "benchmarks of the simulator itself");
  bench->require_subcommand(1);
  auto pending = std::make_shared<std::int64_t>(100000);
  auto events = std::make_shared<std::int64_t>(20000000);
  auto out = std::make_shared<OutputOptions>();
  CLI::App* engine = bench->add_subcommand("engine", "event-queue speed on the hold model");
  engine->add_option("--pending", *pending, "events pending at all times")->check(CLI::Range(std::int64_t{1}, std::int64_t{100000000}));
  engine->add_option("--events", *events, "events to execute after warm-up")->check(CLI::Range(std::int64_t{1}, std::int64_t{100000000000}));
  out->add_to(*engine, false);
  engine->callback([pending, events, out] {
    const std::int64_t rss_before = current_rss_bytes();
    auto model = std::make_unique<HoldModel>();
    for (std::int64_t i = 0; i < *pending; ++i)
      model->queue.schedule(model->rng.exponential(model->mean), [m = model.get()] { m->fire(); });
    // Warm-up: one pass over the pending set so the buckets reach steady state.
    for (std::int64_t i = 0; i < *pending && model->queue.step(); ++i) {
    }
    // Ten samples of resident memory along the run: flat memory means no growth per event.
    nlohmann::json samples = nlohmann::json::array();
    const std::int64_t every = std::max<std::int64_t>(1, *events / 10);
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t done = 0; done < *events;) {
      const std::int64_t stop = std::min(*events, done + every);
      for (; done < stop; ++done) {
        model->queue.step();
        if ((done & 0xFFFF) == 0) throw_if_interrupted();
      }
      samples.push_back({{"events", done},
                         {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()},
                         {"rss_bytes", current_rss_bytes()}});
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::int64_t peak = peak_rss_bytes();
    const double per_event = static_cast<double>(peak - rss_before) / static_cast<double>(*pending);
    const nlohmann::json j = {{"benchmark", "engine_hold_model"},
                    {"pending", *pending},
                    {"events", *events},
                    {"wall_s", wall},
                    {"events_per_s", static_cast<double>(*events) / wall},
                    {"peak_rss_bytes", peak},
                    {"rss_before_bytes", rss_before},
                    {"bytes_per_pending_event", per_event},
                    {"queue_storage_bytes", model->queue.memory_bytes()},
                    {"simulated_s", model->queue.now().seconds()},
                    {"rss_samples", samples}};
    emit(*out,
         [&] {
           return fmt::format("hold model: {} pending, {} events in {:.3f} s: {:.2f} M events/s; peak RSS {:.1f} MiB "
                              "({:.1f} B per pending event)\n",
                              *pending, *events, wall, static_cast<double>(*events) / wall / 1e6,
                              static_cast<double>(peak) / 1048576.0, per_event);
         },
         j);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(90, setup_bench_engine);

}  // namespace iowall
