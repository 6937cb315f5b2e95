// Fuzzes the topology loader from memory: schema validation, device and link
// construction, port checks and the PCIe tree check. Bad input must end in an
// InputError; any other exception escapes and libFuzzer reports it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sim_context.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const iowall::JsonDocument doc = iowall::parse_json_text(text, "fuzz.json");
    iowall::SimContext ctx(1);
    const iowall::Topology topology(ctx, doc.json, doc.name);
  } catch (const iowall::InputError&) {
  }
  return 0;
}
