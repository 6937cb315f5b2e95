#include "measure_test_util.hpp"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

#include "sim/cli/measure_command.hpp"

namespace iowall::measure::testing {
namespace fs = std::filesystem;

namespace {
bool accepts_odirect(const std::string& dir) {
  const std::string probe = dir + "/.odirect-probe";
  const int fd = ::open(probe.c_str(), O_CREAT | O_RDWR | O_DIRECT, 0600);
  if (fd >= 0) ::close(fd);
  ::unlink(probe.c_str());
  return fd >= 0;
}

std::string make_dir_in(const fs::path& parent) {
  fs::create_directories(parent);
  std::string tmpl = (parent / "iowall-measure-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed in " + parent.string());
  return tmpl;
}
}  // namespace

ScratchDir::ScratchDir() {
  path_ = make_dir_in(fs::temp_directory_path());
  direct_ = accepts_odirect(path_);
#ifdef IOWALL_SOURCE_DIR
  if (!direct_) {  // e.g. /tmp on tmpfs: use the (ignored) build folder instead
    fs::remove_all(path_);
    path_ = make_dir_in(fs::path(IOWALL_SOURCE_DIR) / "build" / "measure-tests");
    direct_ = accepts_odirect(path_);
  }
#endif
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::vector<std::string> ScratchDir::entries() const {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
  return names;
}

void run_cli(const std::vector<std::string>& args) {
  CliState state;
  CLI::App app{"iowall"};
  app.require_subcommand(1);
  setup_measure_command(app, state);
  std::vector<std::string> argv{"measure"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> reversed(argv.rbegin(), argv.rend());  // CLI11 takes them in reverse
  app.parse(reversed);
}

std::uint64_t fingerprint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::uint64_t h = 0xcbf29ce484222325ULL;
  char c;
  std::uint64_t n = 0;
  while (in.get(c)) {
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    ++n;
  }
  return h ^ (n << 1);
}

void make_file(const std::string& path, std::int64_t bytes) {
  std::ofstream out(path, std::ios::binary);
  for (std::int64_t i = 0; i < bytes; ++i) out.put(static_cast<char>((i * 131 + 7) & 0xff));
}

MeasureOptions small_run(const std::string& file, TransferType x, Engine e, const char* mode) {
  MeasureOptions o;
  o.file = file;
  o.size = Bytes(4 << 20);
  o.io_size = Bytes(64 << 10);
  o.threads = 2;
  o.xfer = x;
  o.engine = e;
  o.qd = e == Engine::io_uring ? 4 : 1;
  o.mode = parse_io_mode(mode, o.mode_text);
  o.quiet = true;
  return o;
}

}  // namespace iowall::measure::testing
