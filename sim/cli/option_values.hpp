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

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>

#include <CLI/CLI.hpp>

namespace iowall {

// A seed: a whole number from 0 to 2^64-1, refused (not wrapped or clamped) otherwise.
inline std::uint64_t parse_seed_option(const std::string& text, const std::string& option) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end)
    throw CLI::ValidationError(option, "\"" + text.substr(0, 40) + "\" is not a whole number from 0 to 2^64-1");
  return v;
}

template <typename Seed>  // std::uint64_t or std::optional<std::uint64_t>
CLI::Option* add_seed_option(CLI::App& cmd, Seed& seed, const std::string& help) {
  return cmd.add_option_function<std::string>(
      "--seed", [&seed](const std::string& text) { seed = parse_seed_option(text, "--seed"); }, help);
}

// A number that must be finite (CLI11 accepts "nan" and "inf" for a double).
inline CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) {
        double v = 0;
        try {
          std::size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) return std::string("\"") + text.substr(0, 40) + "\" is not a number";
        } catch (const std::exception&) {
          return std::string("\"") + text.substr(0, 40) + "\" is not a number";
        }
        if (!std::isfinite(v)) return std::string("\"") + text.substr(0, 40) + "\" is not a finite number";
        return std::string();
      },
      "NUMBER", "finite");
}

}  // namespace iowall
