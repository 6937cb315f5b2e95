// Every input in fuzz/crashers/TARGET/ once crashed a loader or a parser (or reached
// undefined behaviour). Each is fed to the same entry point as its fuzz target and must
// now end in a clean InputError (or, for unit strings, a parse result), nothing else.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "measure/measurement_json.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sim_context.hpp"
#include "sim/core/units.hpp"
#include "sim/run/path_simulation.hpp"

namespace {

namespace fs = std::filesystem;

struct Crasher {
  std::string name, content;
};

std::vector<Crasher> crashers(const std::string& target) {
  std::vector<Crasher> out;
  const fs::path dir = fs::path(IOWALL_SOURCE_DIR) / "fuzz" / "crashers" / target;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    out.push_back({e.path().filename().string(), std::string(std::istreambuf_iterator<char>(in), {})});
  }
  return out;
}

// The message of a clean error is one line that names the file.
void check_message(const iowall::InputError& e) {
  const std::string what = e.what();
  CHECK(what.find("crasher.json") != std::string::npos);
  CHECK(what.find('\n') == std::string::npos);
}

}  // namespace

TEST_CASE("fuzz crashers: unit strings parse or fail cleanly, and round-trip", "[fuzz]") {
  using namespace iowall;
  for (const Crasher& c : crashers("units")) {
    INFO(c.name << ": " << c.content);
    Time t;
    const ParseResult r = parse_time(c.content, t);
    if (r.ok) {
      Time again;
      CHECK(parse_time(to_string(t), again).ok);
      CHECK(again == t);
    } else {
      CHECK_FALSE(r.error.empty());
    }
    Bytes b;
    Bandwidth bw;
    CHECK_NOTHROW(parse_bytes(c.content, b));
    CHECK_NOTHROW(parse_bandwidth(c.content, bw));
  }
}

TEST_CASE("fuzz crashers: scenarios end in an InputError", "[fuzz]") {
  for (const Crasher& c : crashers("scenario")) {
    INFO(c.name);
    try {
      const iowall::Scenario s = iowall::parse_scenario_text(c.content, "crasher.json");
      for (const iowall::PathChoice& choice : s.paths) const iowall::PathSimulation sim(s, choice);
      FAIL("accepted");
    } catch (const iowall::InputError& e) {
      check_message(e);
    }
  }
}

TEST_CASE("fuzz crashers: topologies end in an InputError", "[fuzz]") {
  for (const Crasher& c : crashers("topology")) {
    INFO(c.name);
    try {
      const iowall::JsonDocument doc = iowall::parse_json_text(c.content, "crasher.json");
      iowall::SimContext ctx(1);
      const iowall::Topology topology(ctx, doc.json, doc.name);
      FAIL("accepted");
    } catch (const iowall::InputError& e) {
      check_message(e);
    }
  }
}

TEST_CASE("fuzz crashers: measurement files end in an InputError", "[fuzz]") {
  for (const Crasher& c : crashers("measurement")) {
    INFO(c.name);
    try {
      iowall::measure::parse_measurement_text(c.content, "crasher.json");
      FAIL("accepted");
    } catch (const iowall::InputError& e) {
      check_message(e);
    }
  }
}
