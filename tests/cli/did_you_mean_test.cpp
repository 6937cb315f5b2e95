// "Did you mean": a misspelled option, command, key, path, model or preset is answered
// with the close names, on the one line of the error.
#include <catch2/catch.hpp>

#include "sim/core/suggest.hpp"
#include "tests/support/run_iowall.hpp"

#include <algorithm>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

using iowall::close_names;
using iowall::did_you_mean;

TEST_CASE("close names: typos, transpositions, parts, nothing for far words", "[cli][suggest]") {
  const std::vector<std::string> opts{"--mttf", "--cluster-mtbf", "--gpus", "--output", "--output-format"};
  CHECK(close_names("--mtbf", opts) == std::vector<std::string>{"--mttf", "--cluster-mtbf"});
  CHECK(close_names("--outptu", opts) == std::vector<std::string>{"--output"});  // a transposition and more
  CHECK(close_names("--GPUS", opts).empty());                                    // only case differs: the same name
  CHECK(close_names("--xyz", opts).empty());
  CHECK(did_you_mean("gpu_drect", {"gpu_direct", "cpu_gpu"}) == " (did you mean \"gpu_direct\"?)");
  CHECK(did_you_mean("--mtbf", opts, false) == " (did you mean --mttf or --cluster-mtbf?)");
  CHECK(did_you_mean("zzzz", {"gpu_direct"}).empty());
  CHECK(did_you_mean("", {"a"}).empty());
}

#ifdef IOWALL_BINARY
TEST_CASE("errors suggest the close name", "[cli][suggest]") {
  struct Case {
    std::string args, expect;
  };
  const std::string sc = "scenarios/default.json";
  const Case cases[] = {
      {"plan checkpoint --gpus 8 --params 7e9 --mtbf 5", "did you mean --mttf"},
      {"run " + sc + " --outptu x", "did you mean --output?"},
      {"rnu " + sc, "did you mean \"run\"?"},
      {"run " + sc + " --set '/paths=[\"gpu_drect\"]'", "/paths/0: \"gpu_drect\" is not one of"},
      {"run " + sc + " --set '/paths=[\"gpu_drect\"]'", "did you mean \"gpu_direct\"?"},
      {"run " + sc + " --set '/paths=[{\"name\": \"gpu_drect\"}]'", "/paths/0/name: \"gpu_drect\""},
      {"run " + sc + " --set '/paths=[{\"name\": \"gpu_drect\"}]'", "did you mean \"gpu_direct\"?"},
      {"run " + sc + " --set '/paths=[3]'", "3 is not of the right type (expected string or object)"},
      {"run " + sc + " --set /workload/threds=3", "did you mean \"threads\"?"},
      {"run " + sc + " --set '/fidelty=\"tlp\"'", "did you mean \"fidelity\"?"},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    const auto r = iowall::testing::run_iowall(c.args);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(c.expect) != std::string::npos);
    CHECK(r.err.find("oneOf") == std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  // A topology with a misspelled model and one with a misspelled preset.
  std::ifstream in("topologies/workstation-gen5.json");
  const nlohmann::json base = nlohmann::json::parse(in);
  const std::string file = "/tmp/iowall_suggest_" + std::to_string(::getpid()) + ".json";
  for (const auto& [key, expect] : {std::pair<std::string, std::string>{"model", "(did you mean \"nvme_ssd\"?)"},
                                    {"preset", "did you mean"}}) {
    nlohmann::json t = base;
    for (auto& d : t["devices"])
      if (d["model"] == "nvme_ssd" && d.contains(key)) {
        d[key] = d[key].get<std::string>() + "x";
        break;
      }
    std::ofstream(file) << t.dump();
    const auto r = iowall::testing::run_iowall("topo show " + file);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(expect) != std::string::npos);
  }
  std::remove(file.c_str());
}
#endif
