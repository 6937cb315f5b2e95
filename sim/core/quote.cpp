#include "sim/core/quote.hpp"

#include <fmt/format.h>

namespace iowall {

using Json = nlohmann::json;

std::string quote_text(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  // Cut at a UTF-8 character boundary.
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return fmt::format("{}... ({} bytes)", s.substr(0, cut), s.size());
}

std::string quote_json(const Json& v, std::size_t max) {
  // Containers may be huge or deep: describe them by size beyond the limit without
  // dumping them whole.
  if (v.is_array() && v.size() > max) return fmt::format("an array of {} items", v.size());
  if (v.is_object() && v.size() > max) return fmt::format("an object of {} keys", v.size());
  if (v.is_string()) return "\"" + quote_text(v.get<std::string>(), max) + "\"";
  return quote_text(v.dump(-1, ' ', false, Json::error_handler_t::replace), max);
}

}  // namespace iowall
