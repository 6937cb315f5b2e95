// Multipath: which of a flow's equal-cost routes each packet takes. RoCEv2 hashes the
// flow onto one route for its lifetime (ECMP); Ultra Ethernet sprays packet i onto
// route i mod N. Spraying reorders packets, which the receiver puts back in order.
#pragma once
#include <cstdint>

#include "sim/core/rng.hpp"
#include "sim/core/units.hpp"

namespace iowall::net {

enum class Multipath { ecmp, spray };

struct RouteChoice {
  Multipath mode = Multipath::ecmp;
  i64 routes = 1;
  int ecmp = 0;  // the route ECMP hashed the flow onto

  // A switch hashes the flow's header fields with its hash seed; here the flow number
  // and the simulation seed stand for both.
  static RouteChoice hashed(Multipath mode, std::size_t routes, std::uint64_t seed, int flow) {
    RouteChoice c;
    c.mode = mode;
    c.routes = static_cast<i64>(routes);
    std::uint64_t h = seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(flow + 1));
    c.ecmp = static_cast<int>(splitmix64(h) % routes);
    return c;
  }
  int route(i64 seq) const { return mode == Multipath::spray ? static_cast<int>(seq % routes) : ecmp; }
};

}  // namespace iowall::net
