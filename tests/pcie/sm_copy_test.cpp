// Host<->GPU copies made by a GPU's SMs (pcie_dma initiator sm) against copy-engine ones:
// the SMs' loads and stores cross every PCIe link as requests of sm_request bytes, so a
// copy's rate is the links' protocol efficiency at that request size; no copy-engine hop.
#include <catch2/catch.hpp>

#include "models/pcie/pcie_spec.hpp"
#include "models/pcie/studies.hpp"

using namespace iowall;
using namespace iowall::pcie;

namespace {
// 4 x 64 MiB over the GPU machine's one Gen5 x16 link (topologies/gpu-machine-h200.json).
double dma_GBps(const char* from, const char* to, const char* kind, Json extra = Json::object()) {
  Json p = {{"topology", std::string(IOWALL_SOURCE_DIR) + "/topologies/gpu-machine-h200.json"},
            {"from", from}, {"to", to}, {"kind", kind}, {"size", "64 MiB"}, {"count", 4}, {"streams", 1}};
  p.update(extra);
  const DmaStudy::Config c = DmaStudy::read_config(Params(p, {"t.json", ""}));
  return DmaStudy::run(c, StudyEnv{}).throughput_GBps;
}
}  // namespace

TEST_CASE("SM copies move host memory in requests of sm_request bytes: the link's efficiency at that size",
          "[pcie][sm]") {
  // Gen5 x16 (MPS 256, MRRS 512 in the topology): reads of 128 B carry 128 B completions,
  // so the rate is the arithmetic's 128 B read rate over the 512 B one times the copy
  // engine's; writes of 128 B payloads against 256 B ones likewise. Chunk fidelity charges
  // the same overheads per chunk to within 2% (tests/pcie/pcie_link_test.cpp).
  const LinkConfig gen5{5, 16, 256, 512};
  for (const char* kind : {"read", "write"}) {
    const bool read = kind == std::string("read");
    const Op op = read ? Op::read : Op::write;
    const double ce = read ? dma_GBps("dram0", "gpu0", kind) : dma_GBps("gpu0", "dram0", kind);
    const double sm = read ? dma_GBps("dram0", "gpu0", kind, {{"initiator", "sm"}})
                           : dma_GBps("gpu0", "dram0", kind, {{"initiator", "sm"}});
    const double ratio = effective_bandwidth(gen5, op, 128).GBps_value() /
                         effective_bandwidth(gen5, op, read ? 512 : 256).GBps_value();
    INFO(kind << ": copy engine " << ce << " GB/s, SMs " << sm << ", expected ratio " << ratio);
    CHECK(sm / ce == Approx(ratio).epsilon(0.02));
    CHECK(sm < ce);
  }
  SECTION("larger requests close the gap; a request size that is not a power of two is refused") {
    const double ce = dma_GBps("dram0", "gpu0", "read");
    CHECK(dma_GBps("dram0", "gpu0", "read", {{"initiator", "sm"}, {"sm_request", "512 B"}}) ==
          Approx(ce).epsilon(0.01));
    CHECK_THROWS_WITH(dma_GBps("dram0", "gpu0", "read", {{"initiator", "sm"}, {"sm_request", "96 B"}}),
                      Catch::Contains("sm_request") && Catch::Contains("power of two"));
  }
}
