// The GPU-machine corpus sources are derived, never written by hand: scripts/checkpoint-derive.py
// turns one session's raw measurements (reads, writes, copies, framework checkpoints) into the
// session's calibration (profile.json, calibrated-topology.json), its node topology, its four
// checkpoint scenarios and its corpus source. Here every committed source is derived again from
// its session folder alone, in a copy of the files the script reads (so nothing is written into
// the source tree), and each output must equal the committed file byte for byte: a change to the
// script, to `iowall calibrate` or to a session's data that would move a committed result shows
// here. The same holds for the topologies scripts/stream-derive.py makes of a session that
// measured the disk's reads alone. Skipped when python3 is absent.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/measure/measure_test_util.hpp"
#include "tests/support/run_iowall.hpp"

#ifdef IOWALL_BINARY
namespace fs = std::filesystem;

namespace {

void copy_into(const fs::path& root, const std::string& rel, const fs::path& to) {
  fs::create_directories((to / rel).parent_path());
  fs::copy(root / rel, to / rel, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

// "" where the files are equal, else their first differing line, numbered, from both.
std::string first_difference(const fs::path& made, const fs::path& committed) {
  std::ifstream a(made), b(committed);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
    if (!ga && !gb) return "";
    if (ga != gb || la != lb)
      return "line " + std::to_string(n) + ": derived \"" + (ga ? la : "<end>") + "\", committed \"" +
             (gb ? lb : "<end>") + "\"";
  }
}

// What every derivation reads besides its session, copied once into `tmp`; each session goes beside it.
void copy_shared_inputs(const fs::path& root, const fs::path& tmp) {
  fs::create_directories(tmp / "scripts");
  for (const auto& e : fs::directory_iterator(root / "scripts"))
    if (e.path().extension() == ".py") fs::copy_file(e.path(), tmp / "scripts" / e.path().filename());
  for (const char* rel : {"topologies/gpu-machine.json", "topologies/gpu-machine-h200.json",
                          "validation/scenarios/ckpt-h200-torch-save.json",
                          "validation/scenarios/ckpt-h200-torch-load.json",
                          "validation/scenarios/ckpt-h200-safetensors-save.json",
                          "validation/scenarios/ckpt-h200-safetensors-load.json"})
    copy_into(root, rel, tmp);
}

// Copies `session` into `tmp` without what the run makes (profile.json, calibrated-topology.json), runs
// `script SESSION NAME` there and checks each of `outputs` (the session's profile and calibrated
// topology added) against the committed file.
void derive_and_compare(const fs::path& root, const fs::path& tmp, const std::string& script,
                        const std::string& session, const std::string& name, std::vector<std::string> outputs) {
  copy_into(root, session, tmp);
  fs::remove(tmp / session / "profile.json");
  fs::remove(tmp / session / "calibrated-topology.json");
  const std::string log = (tmp / (name + ".log")).string();
  const std::string cmd = "IOWALL=" + std::string(IOWALL_BINARY) + " python3 " + (tmp / "scripts" / script).string() +
                          " " + (tmp / session).string() + " " + name + " >" + log + " 2>&1";
  const int rc = std::system(cmd.c_str());
  INFO(iowall::testing::slurp(log));
  REQUIRE(rc == 0);
  outputs.push_back(session + "/profile.json");
  outputs.push_back(session + "/calibrated-topology.json");
  for (const std::string& rel : outputs) {
    INFO(rel);
    REQUIRE(fs::exists(tmp / rel));
    CHECK(first_difference(tmp / rel, root / rel) == "");
  }
}

bool python_missing() {
  if (std::system("command -v python3 >/dev/null 2>&1") == 0) return false;
  WARN("python3 is not installed: skipping the derivation check");
  return true;
}

}  // namespace

TEST_CASE("every GPU-machine corpus source is what checkpoint-derive makes of its session's measurements",
          "[check][derive]") {
  if (python_missing()) return;
  const fs::path root = IOWALL_SOURCE_DIR;
  const std::regex name_re(R"(checkpoint-(h[0-9]+)-(vm[0-9]+)\.json)");
  std::vector<fs::path> sources;
  for (const auto& e : fs::directory_iterator(root / "validation"))
    if (std::regex_match(e.path().filename().string(), name_re)) sources.push_back(e.path());
  std::sort(sources.begin(), sources.end());
  // Fifteen sessions named vmN at the time of writing (the first session's source, checkpoint-h200,
  // predates the script); the check means nothing without them.
  REQUIRE(sources.size() >= 15);

  iowall::measure::testing::ScratchDir scratch;
  const fs::path tmp = scratch.path();
  copy_shared_inputs(root, tmp);

  for (const fs::path& source : sources) {
    std::smatch m;
    const std::string file = source.filename().string();
    REQUIRE(std::regex_match(file, m, name_re));
    const std::string tag = m[1], name = m[2];
    std::string session = nlohmann::json::parse(std::ifstream(source))["source"]["url"];
    while (!session.empty() && session.back() == '/') session.pop_back();
    INFO(file << " from " << session);

    std::vector<std::string> outputs = {"topologies/gpu-machine-" + tag + "-" + name + ".json",
                                        "validation/checkpoint-" + tag + "-" + name + ".json"};
    for (const char* kind : {"torch-save", "torch-load", "safetensors-save", "safetensors-load"})
      outputs.push_back("validation/scenarios/ckpt-" + tag + "-" + name + "-" + kind + ".json");
    derive_and_compare(root, tmp, "checkpoint-derive.py", session, name, outputs);
  }
}

TEST_CASE("every topology stream-derive made is what it makes of its session's reads", "[check][derive]") {
  if (python_missing()) return;
  const fs::path root = IOWALL_SOURCE_DIR;
  const std::regex name_re(R"(gpu-machine-h[0-9]+-(vm[0-9]+)\.json)");
  const std::regex session_re(R"(one session \(([^)]+)\))");
  iowall::measure::testing::ScratchDir scratch;
  const fs::path tmp = scratch.path();
  copy_shared_inputs(root, tmp);
  int derived = 0;
  for (const auto& e : fs::directory_iterator(root / "topologies")) {
    std::smatch m, sm;
    const std::string file = e.path().filename().string();
    if (!std::regex_match(file, m, name_re)) continue;
    const std::string description = nlohmann::json::parse(std::ifstream(e.path()))["description"];
    if (description.find("(scripts/stream-derive.py)") == std::string::npos) continue;
    REQUIRE(std::regex_search(description, sm, session_re));
    INFO(file << " from " << sm[1]);
    derive_and_compare(root, tmp, "stream-derive.py", sm[1], m[1], {"topologies/" + file});
    ++derived;
  }
  // One such session (vm26) at the time of writing.
  CHECK(derived >= 1);
}
#endif
