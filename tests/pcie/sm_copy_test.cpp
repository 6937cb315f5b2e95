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

TEST_CASE("SM reads of host memory are non-posted: at most sm_read_tags x sm_request per round trip", "[pcie][sm]") {
  // topologies/dgx-h100.json: host memory > root complex > switch > GPU, one way 377 ns in
  // the model (a 128 B transfer's elapsed time), so a read's round trip is about 755 ns and
  // 256 requests of 128 B in flight move 32 KiB per round trip: about 43 GB/s, below the
  // Gen5 x16 link's 54 GB/s for 128 B reads. With 1024 in flight the link binds again.
  auto h100 = [](Json extra) {
    Json p = {{"topology", std::string(IOWALL_SOURCE_DIR) + "/topologies/dgx-h100.json"},
              {"from", "dram0"}, {"to", "gpu0"}, {"kind", "read"}, {"size", "64 MiB"}, {"count", 4},
              {"streams", 1}, {"initiator", "sm"}};
    p.update(extra);
    return DmaStudy::run(DmaStudy::read_config(Params(p, {"t.json", ""})), StudyEnv{});
  };
  const DmaStudy::Result tags256 = h100(Json::object()), tags1024 = h100({{"sm_read_tags", 1024}});
  const double one_way_ns = 377.365, window = 256 * 128 / (2 * one_way_ns);  // GB/s
  INFO("256 tags: " << tags256.throughput_GBps << " GB/s (window " << window << "), 1024: "
                    << tags1024.throughput_GBps);
  CHECK(tags256.throughput_GBps == Approx(window).epsilon(0.01));
  CHECK(tags256.narrowest_hop.find("SM reads in flight") != std::string::npos);
  CHECK(tags1024.throughput_GBps > 1.2 * tags256.throughput_GBps);
  CHECK(tags1024.narrowest_hop.find("SM reads") == std::string::npos);
}
