// The bad-input catalogue (tests/cli/bad_inputs/catalogue.tsv): hundreds of bad command
// lines and files, each of which must end with exit code 2 and one line on stderr of at
// most 300 characters that starts with "iowall: " and names the file and JSON pointer or
// the option at fault, with nothing on stdout and no file written. Each case runs the
// real program with an empty directory as its working directory and TMPDIR ({dir}),
// under `timeout 20` and a 4 GiB address-space limit (resident under ASan); a case killed
// by the timeout fails. Under the sanitizers, cases whose generated input is over 1 MiB (the
// scale bounds) are left to the release run.
// One DYNAMIC_SECTION per case: `iowall_tests "[catalogue]" -c CASE-ID` runs one.
// tests/cli/bad_inputs/run_catalogue.sh runs the same catalogue without this test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "tests/support/sanitized.hpp"

#ifdef IOWALL_BINARY
namespace {

namespace fs = std::filesystem;

const char* const kCatalogue = IOWALL_SOURCE_DIR "/tests/cli/bad_inputs/catalogue.tsv";
#ifdef IOWALL_SANITIZED
// A sanitized debug build runs 10-20x slower (200,000 devices: 2.7 s in release, 56 s
// under ASan): the limit still catches a hang, not the sanitizer's cost.
constexpr int kTimeoutSeconds = 240;
#else
constexpr int kTimeoutSeconds = 20;
#endif
constexpr long kMemoryKiB = 4L * 1024 * 1024;
// Under the sanitizers, cases whose generated input is larger (200,000 devices, 5 million
// paths: scale bounds, 3 to 190 s each under ASan, minutes of the sanitizer suite) are left
// to the release run.
constexpr std::uintmax_t kSanitizedInputBytes = 1 << 20;
constexpr std::size_t kMaxLine = 300;

struct Case {
  std::string id, cls, args, must;
  int line = 0;
};

// A generated file: its segments in order ('TEXT, N*TEXT, #seq#A#B#PRE#POST#SEP).
struct Gen {
  std::string name;
  std::vector<std::string> segments;
};

struct Catalogue {
  std::vector<Case> cases;
  std::vector<Gen> gens;
  std::vector<std::string> problems;  // lines that are not well formed
};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return f;
    start = tab + 1;
  }
}

const Catalogue& catalogue() {
  static const Catalogue c = [] {
    Catalogue cat;
    std::ifstream in(kCatalogue);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.empty() || line[0] == '#') continue;
      const std::vector<std::string> f = split_tabs(line);
      if (f[0] == "@gen") {
        if (f.size() < 3) cat.problems.push_back("line " + std::to_string(n) + ": @gen without segments");
        else cat.gens.push_back(Gen{f[1], std::vector<std::string>(f.begin() + 2, f.end())});
        continue;
      }
      if (f.size() != 4 || f[0].empty() || f[1].empty() || f[3].empty()) {
        cat.problems.push_back("line " + std::to_string(n) + ": expected id, class, args, must_contain");
        continue;
      }
      cat.cases.push_back(Case{f[0], f[1], f[2], f[3], n});
    }
    return cat;
  }();
  return c;
}

// \t \n \\ \xHH, and {src}.
std::string unescape(const std::string& s) {
  std::string t;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 5, "{src}") == 0) {
      t += IOWALL_SOURCE_DIR;
      i += 4;
    } else if (s[i] == '\\' && i + 1 < s.size()) {
      const char n = s[++i];
      if (n == 't') t += '\t';
      else if (n == 'n') t += '\n';
      else if (n == 'x' && i + 2 < s.size()) {
        t += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else t += n;
    } else {
      t += s[i];
    }
  }
  return t;
}

void write_gen(const Gen& g, const fs::path& file) {
  std::ofstream out(file, std::ios::binary);
  for (const std::string& s : g.segments) {
    if (!s.empty() && s[0] == '\'') {
      out << unescape(s.substr(1));
    } else if (s.rfind("#seq#", 0) == 0) {
      std::vector<std::string> p;
      std::stringstream ss(s.substr(5));
      for (std::string item; std::getline(ss, item, '#');) p.push_back(item);
      while (p.size() < 5) p.push_back("");
      const long a = std::stol(p[0]), b = std::stol(p[1]);
      const std::string pre = unescape(p[2]), post = unescape(p[3]), sep = unescape(p[4]);
      for (long i = a; i <= b; ++i) out << pre << i << post << (i < b ? sep : "");
    } else {
      const std::size_t star = s.find('*');
      REQUIRE(star != std::string::npos);
      const long n = std::stol(s.substr(0, star));
      const std::string text = unescape(s.substr(star + 1));
      std::string chunk;
      for (int k = 0; k < 1000; ++k) chunk += text;
      long k = 0;
      for (; k + 1000 <= n; k += 1000) out << chunk;
      for (; k < n; ++k) out << text;
    }
  }
}

// The scratch folder of this process: gen/ (generated files, written once), case/ (each
// case's {dir}), io/ (stdout, stderr and the command of each case). Removed at exit.
struct Scratch {
  fs::path root;
  Scratch() {
    std::string tmpl = (fs::temp_directory_path() / "iowall-catalogue-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    root = tmpl;
    fs::create_directories(root / "gen");
    fs::create_directories(root / "case");
    fs::create_directories(root / "io");
    for (const Gen& g : catalogue().gens) write_gen(g, root / "gen" / (g.name + ".json"));
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

Scratch& scratch() {
  static Scratch s;
  return s;
}

// A generated file's placeholder in a case's arguments: {gen:NAME}.
const std::regex& gen_placeholder() {
  static const std::regex gen(R"(\{gen:([A-Za-z0-9_]+)\})");
  return gen;
}

std::string substitute(std::string s, const std::string& dir) {
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  };
  replace_all("{dir}", dir);
  replace_all("{src}", IOWALL_SOURCE_DIR);
  std::smatch m;
  while (std::regex_search(s, m, gen_placeholder())) {
    const std::string path = (scratch().root / "gen" / (m[1].str() + ".json")).string();
    s.replace(static_cast<std::size_t>(m.position(0)), static_cast<std::size_t>(m.length(0)), path);
  }
  return s;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string listing(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string s;
  for (const auto& n : names) s += n + "\n";
  return s;
}

struct Outcome {
  int code = -1;        // exit code, when the program exited
  int signal = 0;       // the signal that ended it, if one did
  bool timed_out = false;
  std::string out, err;
  std::string written;  // what appeared in {dir}
};

// The bytes of the generated files a case reads.
std::uintmax_t generated_bytes(const Case& c) {
  std::uintmax_t bytes = 0;
  for (std::sregex_iterator it(c.args.begin(), c.args.end(), gen_placeholder()), end; it != end; ++it) {
    std::error_code ec;
    const std::uintmax_t n = fs::file_size(scratch().root / "gen" / ((*it)[1].str() + ".json"), ec);
    if (!ec) bytes += n;
  }
  return bytes;
}

Outcome run_case(const Case& c) {
  const fs::path dir = scratch().root / "case" / c.id;
  fs::create_directories(dir);
  const fs::path io = scratch().root / "io";
  const fs::path script = io / (c.id + ".sh"), out = io / (c.id + ".out"), err = io / (c.id + ".err");
  std::ofstream(script) << "exec '" << IOWALL_BINARY << "' " << substitute(c.args, dir.string()) << "\n";
#ifdef IOWALL_SANITIZED
  // ASan maps its shadow memory up front (terabytes of address space): the same bound,
  // as resident memory, enforced by the sanitizer runtime itself.
  const std::string limit = "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=" +
                            std::to_string(kMemoryKiB / 1024) + "\"";
#else
  const std::string limit = "ulimit -v " + std::to_string(kMemoryKiB);
#endif
  const std::string cmd = "cd '" + dir.string() + "' && " + limit + " && TMPDIR='" +
                          dir.string() + "' exec timeout -k 5 " + std::to_string(kTimeoutSeconds) + " /bin/sh '" +
                          script.string() + "' >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
  const int status = std::system(cmd.c_str());
  Outcome o;
  if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    o.code = WEXITSTATUS(status);
    if (o.code == 124 || o.code == 137) o.timed_out = true;
    else if (o.code > 128) o.signal = o.code - 128;
  }
  o.out = slurp(out);
  o.err = slurp(err);
  o.written = listing(dir);
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::remove(script, ec);
  fs::remove(out, ec);
  fs::remove(err, ec);
  return o;
}

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at = s.find(sep); at != std::string::npos; at = s.find(sep, start)) {
    parts.push_back(s.substr(start, at - start));
    start = at + sep.size();
  }
  parts.push_back(s.substr(start));
  return parts;
}

// must_contain: substrings joined by " && " (all needed) and " || " (any one of them).
bool matches(const std::string& line, const std::string& must) {
  for (const std::string& all : split(must, " && ")) {
    bool any = false;
    for (const std::string& alt : split(all, " || ")) any = any || line.find(alt) != std::string::npos;
    if (!any) return false;
  }
  return true;
}

std::string shown(const std::string& s) { return s.size() > 400 ? s.substr(0, 400) + "... (" + std::to_string(s.size()) + " bytes)" : s; }

}  // namespace

TEST_CASE("the bad-input catalogue is well formed and holds at least 300 cases", "[cli][catalogue]") {
  const Catalogue& cat = catalogue();
  INFO(kCatalogue);
  for (const std::string& p : cat.problems) FAIL_CHECK(p);
  CHECK(cat.cases.size() >= 300);
  std::set<std::string> ids, gens;
  std::map<std::string, int> per_class;
  for (const Gen& g : cat.gens) CHECK(gens.insert(g.name).second);
  static const std::regex fixture(R"(\{src\}/([^ '"]+))");
  for (const Case& c : cat.cases) {
    INFO(c.id << " (line " << c.line << ")");
    CHECK(ids.insert(c.id).second);
    CHECK(std::regex_match(c.id, std::regex("[A-Za-z0-9._-]+")));
    ++per_class[c.cls];
    // Every committed file a case names exists, and every generated one is defined.
    for (std::sregex_iterator it(c.args.begin(), c.args.end(), fixture), end; it != end; ++it)
      CHECK(fs::exists(fs::path(IOWALL_SOURCE_DIR) / (*it)[1].str()));
    for (std::sregex_iterator it(c.args.begin(), c.args.end(), gen_placeholder()), end; it != end; ++it)
      CHECK(gens.count((*it)[1].str()));
  }
  for (const auto& [cls, n] : per_class) UNSCOPED_INFO(cls << ": " << n << " cases");
  CHECK(per_class.size() >= 10);
}

TEST_CASE("every bad input of the catalogue: exit code 2, one line naming the file and pointer or option", "[cli][catalogue]") {
  const Catalogue& cat = catalogue();
  REQUIRE_FALSE(cat.cases.empty());
  const fs::path inputs = fs::path(IOWALL_SOURCE_DIR) / "tests/cli/bad_inputs";
  for (const Case& c : cat.cases) {
    if (iowall::testing::kSanitized && generated_bytes(c) > kSanitizedInputBytes) continue;
    DYNAMIC_SECTION(c.id) {
      const std::string before_inputs = listing(inputs), before_gen = listing(scratch().root / "gen");
      const Outcome o = run_case(c);
      INFO("case " << c.id << " [" << c.cls << "] (catalogue line " << c.line << ")");
      INFO("iowall " << c.args);
      INFO("exit code " << o.code << (o.signal ? ", signal " + std::to_string(o.signal) : std::string())
                        << (o.timed_out ? ", timed out" : ""));
      INFO("stderr: " << shown(o.err));
      INFO("stdout: " << shown(o.out));
      CHECK_FALSE(o.timed_out);
      CHECK(o.signal == 0);
      CHECK(o.code == 2);
      CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
      CHECK((!o.err.empty() && o.err.back() == '\n'));
      const std::string line = o.err.substr(0, o.err.find('\n'));
      CHECK(line.size() <= kMaxLine);
      CHECK(line.rfind("iowall: ", 0) == 0);
      const std::string must = substitute(c.must, (scratch().root / "case" / c.id).string());
      INFO("must contain: " << must);
      CHECK(matches(line, must));
      CHECK(o.out.empty());
      INFO("written in {dir}: " << o.written);
      CHECK(o.written.empty());
      CHECK(listing(inputs) == before_inputs);
      CHECK(listing(scratch().root / "gen") == before_gen);
    }
  }
}
#endif
