// Tests that run every shipped scenario, under the sanitizers: a debug build with ASan and
// UBSan runs the simulator 25-40x slower than the release build (the default scenario, 32 GiB
// over five paths: about 6 s in release, 240 s under ASan). There each scenario moves at most
// kSanitizedBytes a target: the same models, paths, branches and output, fewer I/Os of each.
// The release run of the same tests keeps the shipped sizes.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "sim/core/units.hpp"

namespace iowall::testing {

#ifdef IOWALL_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// 512 MiB: the largest shipped io_size x threads (64 MiB x 8, objstore-get) still fits.
inline constexpr std::int64_t kSanitizedBytes = 512LL << 20;

// The workload size a scenario runs with in this build: its own, or under the sanitizers at
// most kSanitizedBytes. Empty when it keeps its own (no size, or already small enough).
inline std::string sanitized_size(const nlohmann::json& scenario) {
  if (!kSanitized || !scenario.contains("workload") || !scenario["workload"].contains("size")) return {};
  const nlohmann::json& size = scenario["workload"]["size"];
  if (!size.is_string()) return {};
  Bytes b{};
  if (!parse_bytes(size.get<std::string>(), b).ok || b.n <= kSanitizedBytes) return {};
  return to_string(Bytes{kSanitizedBytes});
}

// The same, as `iowall run` arguments: "" or " --set '/workload/size=\"512 MiB\"'".
inline std::string sanitized_size_args(const nlohmann::json& scenario) {
  const std::string size = sanitized_size(scenario);
  return size.empty() ? std::string() : " --set '/workload/size=\"" + size + "\"'";
}

}  // namespace iowall::testing
