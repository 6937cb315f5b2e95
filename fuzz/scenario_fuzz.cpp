// Fuzzes the scenario loader from memory, then builds every data path's simulation
// (topology, path, workload) as `iowall run` does and runs its first 100 simulated
// microseconds, so values that pass validation but break the engine (overflowing
// times, zero rates) are found too. Bad input must end in an InputError; anything
// else (a RunError, a crash, a sanitizer report) escapes and libFuzzer reports it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/run/path_simulation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const iowall::Scenario s = iowall::parse_scenario_text(text, "fuzz.json");
    for (const iowall::PathChoice& choice : s.paths) {
      iowall::PathSimulation sim(s, choice);
      sim.workload->start();
      sim.ctx.run(iowall::us(100));
    }
  } catch (const iowall::InputError&) {
  }
  return 0;
}
