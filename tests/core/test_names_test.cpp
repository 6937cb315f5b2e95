// ctest gets each test case by its name, through a CMake list: a ';' in a name splits it
// into pieces that match no test case, and Catch passes a filter that matches nothing, so
// the case silently never runs in ctest (18 did not). No test name may hold one.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

TEST_CASE("no test case name holds a semicolon (ctest would split it and run nothing)", "[meta]") {
  const std::regex name(R"re(TEST_CASE\(\s*"([^"]*)")re");
  std::vector<std::string> bad;
  int seen = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(IOWALL_SOURCE_DIR) + "/tests")) {
    if (e.path().extension() != ".cpp") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator(); ++it) {
      ++seen;
      if ((*it)[1].str().find(';') != std::string::npos) bad.push_back(e.path().filename().string() + ": " + (*it)[1].str());
    }
  }
  CHECK(seen > 400);  // the scan found the suite
  INFO(bad.size() << " names with ';', the first: " << (bad.empty() ? std::string() : bad.front()));
  CHECK(bad.empty());
}
