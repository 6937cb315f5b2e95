#include "sim/plan/restore_mode.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"
#include "sim/core/suggest.hpp"

namespace iowall::plan {

const char* name(RestoreMode m) { return m == RestoreMode::read_all ? "read-all" : "read-once-broadcast"; }

const std::vector<std::string>& restore_mode_names() {
  static const std::vector<std::string> n{"read-all", "read-once-broadcast"};
  return n;
}

RestoreMode parse_restore_mode(const std::string& text, const std::string& option) {
  if (text == "read-all") return RestoreMode::read_all;
  if (text == "read-once-broadcast") return RestoreMode::read_once_broadcast;
  throw InputError("", option,
                   fmt::format("\"{}\" is not a restore mode (expected read-all or read-once-broadcast){}",
                               quote_text(text, 40), did_you_mean(text, restore_mode_names())));
}

const std::vector<std::int64_t>& restore_read_bytes(RestoreMode m, const checkpoint::ShardPlan& shards) {
  // Read once: each rank reads back what it wrote, so every byte is read exactly once.
  return m == RestoreMode::read_all ? shards.restore_bytes : shards.save_bytes;
}

}  // namespace iowall::plan
