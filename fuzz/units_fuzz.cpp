// Fuzzes the unit parsers (time, size, bandwidth, rate, frequency, power). Besides
// not crashing, every value that parses must print to a text that parses back to
// the same value, as units.hpp promises.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/core/units.hpp"

namespace {

template <typename Quantity, typename Parse>
void check(std::string_view text, Parse parse) {
  Quantity value;
  if (!parse(text, value).ok) return;
  const std::string printed = iowall::to_string(value);
  Quantity again;
  if (!parse(printed, again).ok || !(again == value)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace iowall;
  check<Time>(text, [](std::string_view t, Time& v) { return parse_time(t, v); });
  check<Bytes>(text, [](std::string_view t, Bytes& v) { return parse_bytes(t, v); });
  check<Bandwidth>(text, [](std::string_view t, Bandwidth& v) { return parse_bandwidth(t, v); });
  check<Rate>(text, [](std::string_view t, Rate& v) { return parse_rate(t, v); });
  check<Frequency>(text, [](std::string_view t, Frequency& v) { return parse_frequency(t, v); });
  check<Power>(text, [](std::string_view t, Power& v) { return parse_power(t, v); });
  return 0;
}
