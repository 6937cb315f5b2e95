#include "sim/config/topology_text.hpp"

#include <algorithm>
#include <vector>

namespace iowall {
namespace {

// One value on one line: JSON with a space after each comma and colon.
std::string inline_text(const Json& v, const std::vector<std::string>& first = {},
                        const std::vector<std::string>& last = {}) {
  if (v.is_object()) {
    std::vector<std::string> keys;
    for (const std::string& k : first)
      if (v.contains(k)) keys.push_back(k);
    for (const auto& [k, child] : v.items())
      if (std::find(first.begin(), first.end(), k) == first.end() && std::find(last.begin(), last.end(), k) == last.end())
        keys.push_back(k);
    for (const std::string& k : last)
      if (v.contains(k)) keys.push_back(k);
    std::string out = "{";
    for (std::size_t i = 0; i < keys.size(); ++i)
      out += (i ? ", " : "") + Json(keys[i]).dump() + ": " + inline_text(v.at(keys[i]));
    return out + "}";
  }
  if (v.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + inline_text(v[i]);
    return out + "]";
  }
  return v.dump();
}

std::string list_text(const Json& items, const std::vector<std::string>& first, const std::vector<std::string>& last) {
  if (items.empty()) return "[]";
  std::string out = "[\n";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += "    " + inline_text(items[i], first, last) + (i + 1 < items.size() ? ",\n" : "\n");
  return out + "  ]";
}

}  // namespace

std::string topology_text(const Json& t) {
  std::vector<std::string> keys;
  for (const char* k : {"name", "description", "sources"})
    if (t.contains(k)) keys.push_back(k);
  for (const auto& [k, v] : t.items())
    if (k != "name" && k != "description" && k != "sources" && k != "devices" && k != "links") keys.push_back(k);
  for (const char* k : {"devices", "links"})
    if (t.contains(k)) keys.push_back(k);
  std::string out = "{\n";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string& k = keys[i];
    const Json& v = t.at(k);
    std::string value;
    if (k == "devices" && v.is_array())
      value = list_text(v, {"id", "model", "preset"}, {"description"});
    else if (k == "links" && v.is_array())
      value = list_text(v, {"a", "b"}, {});
    else if (k == "sources" && v.is_array())
      value = list_text(v, {}, {});
    else
      value = inline_text(v);
    out += "  " + Json(k).dump() + ": " + value + (i + 1 < keys.size() ? ",\n" : "\n");
  }
  return out + "}\n";
}

}  // namespace iowall
