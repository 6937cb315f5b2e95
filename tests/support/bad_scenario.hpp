// Bad-input checks through the real program: a scenario written to a temporary file,
// run with `iowall run`, must fail with one line naming the file and the JSON pointer,
// and exit code 2.
#pragma once
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"

namespace iowall::testing {

// Runs `doc` as a scenario; checks the error names the file and `pointer` and holds `words`.
inline void check_bad_scenario(const nlohmann::json& doc, const std::string& pointer, const std::string& words) {
  static int n = 0;
  const std::string file = "/tmp/iowall_bad_" + std::to_string(getpid()) + "_" + std::to_string(n++) + ".json";
  std::ofstream(file) << doc.dump(2);
  const CliResult r = run_iowall("run " + file);
  std::remove(file.c_str());
  INFO(doc["paths"].dump() << " -> " << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.rfind("iowall: " + file + ": " + pointer + ":", 0) == 0);
  CHECK(r.err.find(words) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace iowall::testing
