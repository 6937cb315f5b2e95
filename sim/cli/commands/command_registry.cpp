#include <algorithm>
#include <vector>

#include "sim/cli/command.hpp"

namespace iowall {
namespace {
std::vector<std::pair<int, CommandSetup>>& setups() {
  static std::vector<std::pair<int, CommandSetup>> list;
  return list;
}
}  // namespace

CommandRegistrar::CommandRegistrar(int order, CommandSetup setup) { setups().emplace_back(order, setup); }

void setup_commands(CLI::App& root, CliState& state) {
  auto list = setups();
  std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, setup] : list) setup(root, state);
}

}  // namespace iowall
