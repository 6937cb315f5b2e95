// The layering of the source tree, read from its #include lines: the engine (sim/core)
// includes nothing above it; config sits on the engine; the writers (sim/report: typed
// results and their JSON, text, CSV and HTML) on config; the runners on the writers,
// filling the typed results; the planner on the runners; models implement the engine's
// interfaces and never reach the live backend, the planner or the CLI; machine discovery
// sits beside the live backend, on config; the CLI sits on top (DESIGN.md, engine rule 3).
// Each violation names the file and the include.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Rule {
  const char* layer;                     // files whose path starts with this
  std::vector<const char*> forbidden;    // may not include paths starting with these
};

const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = {
      // The engine: time, events, components, parameters. It includes nothing above it.
      {"sim/core/", {"sim/config/", "sim/run/", "sim/plan/", "sim/report/", "sim/cli/", "models/", "measure/", "discover/"}},
      // Reading JSON, the registry, topologies and scenarios, on the engine.
      {"sim/config/", {"sim/run/", "sim/plan/", "sim/report/", "sim/cli/", "models/", "measure/", "discover/"}},
      // Writers and the typed results they read, on config; the runners on the writers
      // (a runner fills a typed result; a writer never runs anything); the planner on both.
      {"sim/report/", {"sim/run/", "sim/plan/", "sim/check/", "sim/cli/", "models/", "measure/", "discover/"}},
      {"sim/run/", {"sim/plan/", "sim/check/", "sim/cli/", "models/", "measure/", "discover/"}},
      {"sim/plan/", {"sim/check/", "sim/cli/", "models/", "measure/", "discover/"}},
      // The accuracy check runs scenarios, the planner and studies by name.
      {"sim/check/", {"sim/cli/", "models/", "measure/", "discover/"}},
      // Models implement the engine's interfaces; the live backend sits beside them. A
      // study in models/ is handed the scenario runner (sim/config/study.hpp) and
      // returns a typed result: models write no result files.
      {"models/", {"measure/", "discover/", "sim/cli/", "sim/plan/", "sim/check/", "sim/report/"}},
      // The CXL tier study runs its NVMe scenarios through the runner it is handed.
      {"models/cxl/", {"sim/run/"}},
      // The study commands run studies by name: no model internals (DESIGN.md rule 3).
      {"sim/cli/commands/net", {"models/"}},
      {"sim/cli/commands/rdma", {"models/"}},
      {"sim/cli/commands/cxl", {"models/"}},
      {"sim/cli/commands/pcie", {"models/"}},
      {"measure/", {"sim/cli/", "discover/"}},
      // Discovery reads the machine as the live backend does, and writes a topology: it
      // knows parts by preset name through the registry, never a model's internals.
      {"discover/", {"sim/cli/", "sim/run/", "sim/plan/", "sim/report/", "sim/check/", "models/", "measure/"}},
  };
  return r;
}

// The violations in one file (`path` relative to the source root, `text` its contents).
std::vector<std::string> violations(const std::string& path, const std::string& text) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^">]+)[">])");
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (!std::regex_search(line, m, include)) continue;
    const std::string target = m[1];
    for (const Rule& r : rules()) {
      if (path.rfind(r.layer, 0) != 0) continue;
      for (const char* f : r.forbidden)
        if (target.rfind(f, 0) == 0)
          out.push_back(path + ":" + std::to_string(n) + " includes \"" + target + "\" (" + r.layer +
                        " may not include " + f + ")");
    }
  }
  return out;
}

std::vector<std::string> scan_tree(const fs::path& root) {
  std::vector<std::string> out;
  for (const char* top : {"sim", "models", "measure", "discover"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      if (!e.is_regular_file()) continue;
      const std::string ext = e.path().extension().string();
      if (ext != ".hpp" && ext != ".cpp" && ext != ".h" && ext != ".cc") continue;
      std::ifstream f(e.path());
      std::stringstream text;
      text << f.rdbuf();
      const std::string rel = fs::relative(e.path(), root).generic_string();
      for (std::string& v : violations(rel, text.str())) out.push_back(std::move(v));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("the checker finds an upward include and names the file and include", "[layering]") {
  const auto v = violations("sim/run/x.cpp", "#include <vector>\n  #  include \"models/ssd/nvme_ssd.hpp\"\n");
  REQUIRE(v.size() == 1);
  CHECK(v[0] == "sim/run/x.cpp:2 includes \"models/ssd/nvme_ssd.hpp\" (sim/run/ may not include models/)");
  CHECK(violations("models/paths/p.cpp", "#include \"sim/cli/output.hpp\"\n").size() == 1);
  CHECK(violations("models/paths/p.cpp", "#include \"measure/fit.hpp\"\n").size() == 1);
  CHECK(violations("sim/report/run_table.cpp", "#include \"sim/run/runner.hpp\"\n").size() == 1);
  CHECK(violations("sim/run/runner.cpp", "#include \"sim/report/run_result.hpp\"\n").empty());
  // Allowed: models on the engine, the CLI on anything.
  CHECK(violations("models/paths/p.cpp", "#include \"sim/run/data_path.hpp\"\n").empty());
  CHECK(violations("sim/cli/main.cpp", "#include \"models/ssd/nvme_ssd.hpp\"\n").empty());
  CHECK(violations("models/cxl/k.cpp", "#include \"sim/report/result_file.hpp\"\n").size() == 1);
  CHECK(violations("sim/cli/commands/net_cmd.cpp", "#include \"models/net/fabric.hpp\"\n").size() == 1);
}

TEST_CASE("no layer includes one above it", "[layering]") {
  const fs::path root(IOWALL_SOURCE_DIR);
  REQUIRE(fs::is_directory(root / "sim" / "run"));
  const std::vector<std::string> found = scan_tree(root);
  std::string all;
  for (const std::string& v : found) all += v + "\n";
  INFO(all);
  CHECK(found.empty());
}
