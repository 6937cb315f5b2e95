// Unit-carrying values given as command-line options: parsed like JSON values, with
// errors that name the option (exit code 2).
#pragma once
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace iowall {

inline Bytes positive_bytes_option(const std::string& text, const char* option) {
  Bytes b;
  const ParseResult r = parse_bytes(text, b);
  if (!r.ok) throw InputError("", option, r.error);
  if (b.n <= 0) throw InputError("", option, "must be positive");
  return b;
}

}  // namespace iowall
