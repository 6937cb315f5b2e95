// The library compiles in unity batches, where a file's internal names (anonymous namespace,
// namespace-scope `static`) are seen by the files after it: a helper in `iowall::{anonymous}`
// hides an `iowall::` function of the same name from a later file's unqualified calls, which
// then call the wrong one without a word from the compiler (it happened: two `topology_text`s).
// scripts/check-unity-names.py holds every internal name unique among the library's files and
// apart from the names its headers declare. Here it must pass on the sources, and it must find
// both kinds of clash in a made-up tree. Skipped when python3 is absent.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

struct ScriptRun {
  int code = -1;
  std::string out;
};

ScriptRun check_names(const std::string& root) {
  const std::string cmd = "python3 " + std::string(IOWALL_SOURCE_DIR) + "/scripts/check-unity-names.py " + root + " 2>&1";
  ScriptRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool no_python() {
  if (std::system("command -v python3 >/dev/null 2>&1") == 0) return false;
  WARN("python3 is not installed: skipping the unity-name check");
  return true;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

}  // namespace

TEST_CASE("no two library files share an internal name, and none hides a header's name", "[unity]") {
  if (no_python()) return;
  const ScriptRun r = check_names(IOWALL_SOURCE_DIR);
  INFO(r.out);
  CHECK(r.code == 0);
}

TEST_CASE("the unity-name check finds a shared helper and one that hides a declared function", "[unity]") {
  if (no_python()) return;
  const fs::path root = fs::temp_directory_path() / ("iowall_unity_names_" + std::to_string(::getpid()));
  fs::remove_all(root);
  write(root / "sim/config/text.hpp", "namespace iowall {\nstd::string topology_text(const Json& t);\n}\n");
  write(root / "sim/report/a.cpp",
        "namespace iowall {\nnamespace {\n\nstd::string topology_text(const Json& t) { return {}; }\n"
        "double pct(double f) { return 100 * f; }\n\n}  // namespace\n}  // namespace iowall\n");
  write(root / "sim/report/b.cpp",
        "namespace iowall {\nnamespace {\n// A shared alias is allowed.\nusing Json = nlohmann::json;\n"
        "std::string pct(double f, int digits = {}) { return \"{\"; }\n}  // namespace\n}  // namespace iowall\n");
  write(root / "sim/report/c.cpp", "namespace iowall {\nnamespace {\nusing Json = nlohmann::json;\n}\n}\n");
  const ScriptRun r = check_names(root.string());
  fs::remove_all(root);
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("sim/report/a.cpp:4: 'topology_text' hides the name sim/config/text.hpp:2 declares") != std::string::npos);
  CHECK(r.out.find("sim/report/b.cpp:5: 'pct' is also internal to sim/report/a.cpp:5") != std::string::npos);
  CHECK(r.out.find("Json") == std::string::npos);
}
