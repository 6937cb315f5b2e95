// Deterministic random streams: xoshiro256** seeded by splitmix64 from the scenario
// seed and a component's path, so adding a component never shifts another's stream.
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

#include "sim/core/units.hpp"

namespace iowall {

inline std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// FNV-1a: a stable hash of a component path (std::hash is not stable across builds).
inline std::uint64_t stable_hash(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

class Rng {
public:
  explicit Rng(std::uint64_t seed = 1, std::string_view stream = {}) {
    std::uint64_t x = seed ^ stable_hash(stream);
    for (auto& w : s_) w = splitmix64(x);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  // Exponentially distributed time with the given mean, in whole picoseconds.
  Time exponential(Time mean) {
    const double u = 1.0 - uniform();  // (0, 1]
    return scale(mean, -std::log(u));
  }
  // Lognormal multiplier with median 1 and the given sigma (for latency spreads).
  double lognormal_factor(double sigma) {
    return std::exp(sigma * normal());
  }
  double normal() {
    // Box-Muller gives two independent values per pair of uniforms; the second is kept
    // for the next call (half the logarithms and no second trig call).
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform(), u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1)), a = 6.283185307179586 * u2;
    spare_ = r * std::sin(a);
    has_spare_ = true;
    return r * std::cos(a);
  }

private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace iowall
