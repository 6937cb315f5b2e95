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
  if (!b.is_positive()) throw InputError("", option, "must be positive");
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

#include <map>

namespace iowall {

// Model parameters given as command-line options travel as JSON through Params; an
// error there names a JSON pointer ("/per_page"). This runs `read` and renames such a
// pointer to the option the user typed: "--" + prefix + the key with dashes, or the
// name in `renames`, or `single` for every key when the options all arrive through one
// option (`--param key=value`).
template <typename F>
auto read_as_options(F&& read, const std::string& prefix = "", const std::map<std::string, std::string>& renames = {},
                     const std::string& single = "") -> decltype(read()) {
  try {
    return read();
  } catch (const InputError& e) {
    const std::string& ptr = e.pointer();
    std::string key = ptr.size() > 1 && ptr[0] == '/' ? ptr.substr(1) : std::string();
    if (!single.empty()) throw InputError("", single, key.empty() ? e.message() : key + ": " + e.message());
    if (key.empty() || key.find('/') != std::string::npos) throw;
    const auto it = renames.find(key);
    if (it != renames.end()) key = it->second;
    for (char& c : key)
      if (c == '_') c = '-';
    throw InputError("", "--" + prefix + key, e.message());
  }
}

}  // namespace iowall

namespace iowall {

// Runs `work`, renaming an InputError at one of the scenario pointers in `options`
// (pointer prefix -> option) to that option: a benchmark's options land in a scenario
// the user never wrote, so its pointers would mean nothing to them.
template <typename F>
auto with_option_pointers(F&& work, const std::map<std::string, std::string>& options) -> decltype(work()) {
  try {
    return work();
  } catch (const InputError& e) {
    for (const auto& [prefix, option] : options)
      if (e.pointer().rfind(prefix, 0) == 0) throw InputError("", option, e.message());
    throw;
  }
}

}  // namespace iowall
