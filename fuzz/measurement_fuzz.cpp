// Fuzzes the reader of `iowall measure` JSON results from memory. Bad input must end
// in an InputError; any other exception escapes and libFuzzer reports it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "measure/measurement_json.hpp"
#include "sim/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    iowall::measure::parse_measurement_text(text, "fuzz.json");
  } catch (const iowall::InputError&) {
  }
  return 0;
}
