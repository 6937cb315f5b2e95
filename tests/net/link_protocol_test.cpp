// The ethernet (RoCEv2) and infiniband link protocols a topology names.
#include <catch2/catch.hpp>

#include "sim/config/registry.hpp"

using namespace iowall;

namespace {
LinkSpec make(const char* protocol, Json j) {
  const ModelEntry* e = ModelRegistry::instance().find("link", protocol);
  REQUIRE(e != nullptr);
  return e->link(Params(std::move(j), {"test", ""}));
}
}  // namespace

TEST_CASE("RoCEv2 and InfiniBand packets pay their headers per path MTU", "[net][link]") {
  const LinkSpec roce = make("ethernet", {{"rate", "400 Gb/s"}, {"cable", "20 m"}});
  CHECK(roce.bandwidth == Bandwidth::Gbps(400));
  CHECK(roce.latency == Time(100'000));  // 20 m x 5 ns/m
  // 4096 B of payload: 82 B of Ethernet, IP/UDP and BTH per packet, RETH once.
  CHECK(roce.wire.wire_bytes(Bytes(4096)) == Bytes(4096 + 82 + 16));
  CHECK(roce.wire.wire_bytes(Bytes(1 << 20)) == Bytes((1 << 20) + 256 * 82 + 16));
  const LinkSpec ib = make("infiniband", {{"mtu", 2048}});
  CHECK(ib.wire.wire_bytes(Bytes(4096)) == Bytes(4096 + 2 * 26 + 16));
}

TEST_CASE("link protocols reject a length without unit and a path MTU off the power of two", "[net][link][errors]") {
  CHECK_THROWS_AS(make("ethernet", {{"cable", "20"}}), InputError);
  CHECK_THROWS_AS(make("ethernet", {{"mtu", 3000}}), InputError);
  CHECK_THROWS_AS(make("infiniband", {{"rate", "fast"}}), InputError);
}
