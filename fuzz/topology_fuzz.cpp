// Fuzzes the topology loader from memory: schema validation, device and link
// construction, port checks and the PCIe tree check; and, for a document with "nodes" and
// "fabric", the cluster description reader and its summary. Bad input must end in an
// InputError; any other exception escapes and libFuzzer reports it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sim_context.hpp"
#include "sim/plan/cluster.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const iowall::JsonDocument doc = iowall::parse_json_text(text, "fuzz.json");
    if (iowall::plan::is_cluster(doc.json)) {
      (void)iowall::plan::cluster_summary(iowall::plan::cluster_from_json(doc.json, doc.name, ""));
      return 0;
    }
    iowall::SimContext ctx(1);
    const iowall::Topology topology(ctx, doc.json, doc.name);
  } catch (const iowall::InputError&) {
  }
  return 0;
}
