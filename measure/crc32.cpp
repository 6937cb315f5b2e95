#include "measure/crc32.hpp"

#include <array>
#include <cstring>

namespace iowall::measure {
namespace {

constexpr std::size_t kStep = 16;
using Tables = std::array<std::array<std::uint32_t, 256>, kStep>;

// Table 0 is the byte-wise table of the reflected polynomial 0xEDB88320; table k gives a
// byte's contribution k bytes further on, so sixteen lookups fold in sixteen bytes at once.
constexpr Tables make_tables() {
  Tables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t k = 1; k < kStep; ++k)
    for (std::uint32_t i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
  return t;
}

constexpr Tables kTables = make_tables();

}  // namespace

std::uint32_t crc32_update(std::uint32_t crc, const void* p, std::size_t n) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the 8-byte step assumes little-endian loads");
  const auto* s = static_cast<const unsigned char*>(p);
  std::uint32_t c = ~crc;
  while (n >= kStep) {
    std::uint32_t w[4];
    std::memcpy(w, s, sizeof w);
    w[0] ^= c;
    c = 0;
    // Word i's bytes are 15 - 4i ... 12 - 4i bytes before the end of the step.
    for (std::size_t i = 0; i < 4; ++i) {
      const std::size_t t = kStep - 1 - 4 * i;
      c ^= kTables[t][w[i] & 0xff] ^ kTables[t - 1][(w[i] >> 8) & 0xff] ^ kTables[t - 2][(w[i] >> 16) & 0xff] ^
           kTables[t - 3][w[i] >> 24];
    }
    s += kStep;
    n -= kStep;
  }
  while (n-- > 0) c = (c >> 8) ^ kTables[0][(c ^ *s++) & 0xff];
  return ~c;
}

}  // namespace iowall::measure
