// Outputs never replace anything but a regular file: a device or a FIFO is written
// through, a directory is refused before any work, an existing file keeps its mode, a
// symbolic link stays a link, and measure never writes over its own target, however
// the two paths are spelled.
#include <catch2/catch.hpp>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support/run_iowall.hpp"

namespace {

namespace fs = std::filesystem;
using iowall::testing::run_iowall;
using iowall::testing::slurp;

struct Dir {
  fs::path path;
  Dir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("iowall_outsafe_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Dir() { fs::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), {})); }
};

const std::string kQuick = std::string("run ") + IOWALL_SOURCE_DIR + "/scenarios/default.json -q --set '/paths=[\"cpu_only\"]' "
                           "--set '/workload/size=\"64 MiB\"' --output-format json";
// Hours of simulated work: a command that ends at once did not start it.
const std::string kHuge = std::string("run ") + IOWALL_SOURCE_DIR + "/scenarios/default.json -q --set '/workload/size=\"8 TiB\"'";

mode_t mode_of(const std::string& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode;
}

}  // namespace

TEST_CASE("an output to /dev/null leaves /dev/null a character device", "[cli][output]") {
  REQUIRE(S_ISCHR(mode_of("/dev/null")));
  const auto r = run_iowall(kQuick + " --output /dev/null");
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(S_ISCHR(mode_of("/dev/null")));
}

TEST_CASE("an output to a FIFO writes through it and leaves the FIFO", "[cli][output]") {
  Dir d;
  const std::string fifo = d.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // A reader on the other end, as a shell's process substitution would be.
  auto reader = std::async(std::launch::async, [&] { return slurp(fifo); });
  const auto r = run_iowall(kQuick + " --output " + fifo);
  // Had iowall never opened the FIFO, the reader would wait for ever: open and close
  // the write end once, which ends a waiting reader's read with end-of-file.
  if (reader.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) {
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  }
  const std::string got = reader.get();
  CHECK(r.code == 0);
  CHECK(got.find("\"iowall_result\"") != std::string::npos);
  CHECK(S_ISFIFO(mode_of(fifo)));
}

TEST_CASE("an existing output keeps its permission bits, a new one follows the umask", "[cli][output]") {
  Dir d;
  const std::string kept = d.file("kept.json");
  std::ofstream(kept) << "old";
  REQUIRE(::chmod(kept.c_str(), 0600) == 0);
  CHECK(run_iowall(kQuick + " --output " + kept).code == 0);
  CHECK((mode_of(kept) & 07777) == 0600);
  CHECK(slurp(kept).find("\"iowall_result\"") != std::string::npos);

  const std::string fresh = d.file("fresh.json");
  const std::string cmd = "umask 027 && " + std::string(IOWALL_BINARY) + " " + kQuick + " --output " + fresh +
                          " >/dev/null 2>&1";
  CHECK(std::system(cmd.c_str()) == 0);
  CHECK((mode_of(fresh) & 07777) == 0640);
}

TEST_CASE("an output through a symbolic link replaces the file it names, not the link", "[cli][output]") {
  Dir d;
  const std::string target = d.file("target.json"), link = d.file("link.json");
  std::ofstream(target) << "old";
  fs::create_symlink(target, link);
  CHECK(run_iowall(kQuick + " --output " + link).code == 0);
  CHECK(S_ISLNK(mode_of(link)));
  CHECK(slurp(target).find("\"iowall_result\"") != std::string::npos);
  CHECK(d.entries() == 2);  // no temporary file left beside them
}

TEST_CASE("an output that cannot be written is refused before the run starts", "[cli][output]") {
  Dir d;
  fs::create_directories(d.file("adir"));
  for (const std::string& bad : {d.file("adir"), d.file("missing/out.json")}) {
    // kHuge would run for hours: exit code 2 shows nothing was simulated first.
    const auto r = run_iowall(kHuge + " --output " + bad, "timeout 60 ");
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: --output: cannot write " + bad, 0) == 0);
  }
  CHECK(fs::is_directory(d.file("adir")));
  CHECK(fs::is_empty(d.file("adir")));
}

TEST_CASE("measure refuses an output that is its target spelled another way", "[cli][output][measure]") {
  Dir d;
  const std::string data = d.file("data.bin");
  {
    std::ofstream out(data, std::ios::binary);
    out << std::string(1 << 20, 'x');
  }
  const std::string spellings[] = {"data.bin", "./data.bin", d.path.string() + "/data.bin",
                                   d.path.string() + "/../" + d.path.filename().string() + "/data.bin"};
  for (const std::string& out : spellings) {
    const std::string cmd = "cd " + d.path.string() + " && " + IOWALL_BINARY +
                            " measure -f data.bin -i 64K --runtime \"0.2 s\" --quiet --output-format json --output " + out +
                            " >/dev/null 2>" + d.path.string() + "/err.txt";
    const int status = std::system(cmd.c_str());
    const std::string err = slurp(d.file("err.txt"));
    INFO(out << ": " << err);
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(err.find("--output") != std::string::npos);
    CHECK(fs::file_size(data) == (1u << 20));
  }
}

TEST_CASE("measure removes the file it created when filling it fails", "[cli][output][measure]") {
  Dir d;
  // A file size limit of 1 MiB (ulimit -f counts 1 KiB blocks in dash) makes the fill's
  // writes fail with EFBIG, as a full disk would with ENOSPC; SIGXFSZ is ignored so the
  // write returns the error instead of ending the process.
  const std::string cmd = "cd " + d.path.string() + " && trap '' XFSZ && ulimit -f 1024 && " + IOWALL_BINARY +
                          " measure -f new.bin -s 16M -i 1M --quiet >/dev/null 2>" + d.path.string() + "/../fill_err_" +
                          std::to_string(::getpid()) + ".txt";
  const int status = std::system(cmd.c_str());
  const std::string err_file = (d.path.parent_path() / ("fill_err_" + std::to_string(::getpid()) + ".txt")).string();
  const std::string err = slurp(err_file);
  fs::remove(err_file);
  INFO(err);
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(err.find("cannot fill") != std::string::npos);
  CHECK(d.entries() == 0);
}
