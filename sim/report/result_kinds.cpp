#include "sim/report/result_kinds.hpp"

#include <map>

namespace iowall::report {
namespace {

std::map<std::string, ResultKind>& kinds() {
  static std::map<std::string, ResultKind> k;
  return k;
}

}  // namespace

void register_result_kind(const std::string& kind, ResultKind k) { kinds()[kind] = std::move(k); }

const ResultKind* find_result_kind(const std::string& kind) {
  const auto it = kinds().find(kind);
  return it == kinds().end() ? nullptr : &it->second;
}

std::vector<std::string> registered_result_kinds() {
  std::vector<std::string> out;
  for (const auto& [k, v] : kinds()) out.push_back(k);
  return out;
}

}  // namespace iowall::report
