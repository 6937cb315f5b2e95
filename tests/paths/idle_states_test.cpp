// A thread that blocks for its I/O leaves its core idle; with C-states the core sleeps as
// deep as the governor's predicted idle allows (target residency <= prediction, exit latency
// <= prediction / (1 + iowait_factor x 1) for the thread in iowait) and the completion waits
// for its exit latency. One psync thread at QD1 on a lumped drive: the I/O's latency grows by
// the chosen state's exit latency, and a polling stack never sleeps.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/run/runner.hpp"

namespace {

using namespace iowall;

// Skylake-SP's states (intel_idle.c skx_cstates): C1 2/2 us, C1E 10/20 us, C6 133/600 us
// (exit latency / target residency).
const char* const kSkx = "C1 2us 2us, C1E 10us 20us, C6 133us 600us";

double mean_latency_us(const std::string& idle_states, const std::string& read_latency, const std::string& stack,
                       int iowait_factor = 10) {
  Json doc = load_json("scenarios/nvme-preset-qd.json", IOWALL_SOURCE_DIR).json;
  doc.erase("sweep");
  Json& cpu = doc["topology"]["devices"][0];
  if (!idle_states.empty()) cpu["idle_states"] = idle_states;
  cpu["idle_iowait_factor"] = iowait_factor;
  Json& drive = doc["topology"]["devices"][3];
  drive = Json{{"id", "nvme0"}, {"model", "nvme_ssd"}, {"media", "lumped"}, {"read_latency", read_latency},
               {"latency_sigma", 0.0}, {"capacity", "1 TB"}};
  doc["workload"]["size"] = "8 MiB";
  doc["paths"] = Json::array({Json{{"name", "cpu_only"}, {"io_stack", stack}}});
  const RunResult r = run_scenario(scenario_from_json(doc, "idle.json", IOWALL_SOURCE_DIR));
  return r.paths.at(0).metrics.latency_mean_us;
}

}  // namespace

TEST_CASE("a blocked thread's core sleeps as deep as its idle allows and wakes late by that much", "[paths][idle]") {
  // ~150 us idle per I/O: C1E (residency 20 us, exit 10 us <= 150/11 = 13.6) but not C6
  // (600 us): +10 us per I/O (the first I/O has no prediction yet and wakes from nothing: the
  // mean moves by just under 10).
  const double awake = mean_latency_us("", "150 us", "psync");
  CHECK(mean_latency_us(kSkx, "150 us", "psync") - awake == Approx(10.0).margin(0.5));
  // ~100 us idle: 100/11 = 9.1 us is below C1E's 10 us exit: C1 (+2).
  CHECK(mean_latency_us(kSkx, "100 us", "psync") - mean_latency_us("", "100 us", "psync") == Approx(2.0).margin(0.2));
  // ~1 ms idle: C6's residency fits, but its 133 us exit is more than 1000/11 = 91 us: C1E
  // again (+10); a governor that ignores I/O waiters (factor 0) takes C6 (+133).
  const double awake_ms = mean_latency_us("", "1 ms", "psync");
  CHECK(mean_latency_us(kSkx, "1 ms", "psync") - awake_ms == Approx(10.0).margin(0.5));
  CHECK(mean_latency_us(kSkx, "1 ms", "psync", 0) - awake_ms == Approx(133.0).margin(3.0));
  // ~2 ms idle: 2000/11 = 182 us admits C6's 133 us exit.
  CHECK(mean_latency_us(kSkx, "2 ms", "psync") - mean_latency_us("", "2 ms", "psync") == Approx(133.0).margin(3.0));
  // ~10 us idle: the limit 10/11 us is below C1's 2 us exit, so the core polls (+0); without
  // the I/O waiter's weight C1 (residency 2 us) is taken (+2).
  const double awake_us = mean_latency_us("", "10 us", "psync");
  CHECK(mean_latency_us(kSkx, "10 us", "psync") == Approx(awake_us).margin(0.05));
  CHECK(mean_latency_us(kSkx, "10 us", "psync", 0) - awake_us == Approx(2.0).margin(0.2));
  // A polling stack keeps its core busy: no wake-up at all.
  CHECK(mean_latency_us(kSkx, "150 us", "io_uring_poll") == Approx(mean_latency_us("", "150 us", "io_uring_poll")));
}

TEST_CASE("idle states are checked: NAME EXIT RESIDENCY, shallow to deep", "[paths][idle]") {
  CHECK_THROWS_WITH(mean_latency_us("C1 2us", "100 us", "psync"), Catch::Contains("/idle_states") && Catch::Contains("NAME EXIT RESIDENCY"));
  CHECK_THROWS_WITH(mean_latency_us("C6 133us 600us, C1 2us 2us", "100 us", "psync"),
                    Catch::Contains("target residencies may not decrease"));
}
