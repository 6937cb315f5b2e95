// A short interleaved comparison of `iowall measure` with fio on the same file and
// settings (fio, iowall, fio, iowall, ... five pairs after one discarded warm-up pair):
// the median of the pair ratios must be within 15%. Skipped when fio is absent.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "measure/calibration_points.hpp"

#ifdef IOWALL_BINARY
namespace {

nlohmann::json run_json(const std::string& cmd, const std::string& out) {
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(out);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("iowall measure and fio agree within 15% on interleaved O_DIRECT reads", "[calibrate][fio]") {
  if (std::system("command -v fio >/dev/null 2>&1") != 0) {
    WARN("fio is not installed: skipping the fio cross-check");
    return;
  }
  // In memory (tmpfs) where the kernel takes O_DIRECT there: this test checks the two
  // tools against each other, and a shared disk's swings (ratios from 0.6 to 1.2 between
  // consecutive 1 s runs here) would fail it however many pairs it took. Otherwise on the
  // local disk. The disk comparison itself is scripts/calibrate-fio-crosscheck.sh's.
  struct Scratch {
    std::filesystem::path dir = pick() / ("iowall-fio-" + std::to_string(::getpid()));
    static std::filesystem::path pick() {
      const std::string probe = "/dev/shm/iowall-odirect-" + std::to_string(::getpid());
      const int fd = ::open(probe.c_str(), O_CREAT | O_RDWR | O_DIRECT, 0600);
      if (fd < 0) return "/var/tmp";
      ::close(fd);
      ::unlink(probe.c_str());
      return "/dev/shm";
    }
    Scratch() { std::filesystem::create_directories(dir); }
    ~Scratch() { std::filesystem::remove_all(dir); }  // also when a REQUIRE fails
  } scratch;
  const std::filesystem::path& dir = scratch.dir;
  const std::string file = (dir / "probe.bin").string(), out = (dir / "out.json").string();
  const std::string iowall = IOWALL_BINARY;
  REQUIRE(std::system((iowall + " measure -f " + file + " -s 128M -i 1M --keep --quiet").c_str()) == 0);
  std::vector<double> ratios;
  // Pair 0 warms the file and the device queue up and is not counted.
  for (int pair = 0; pair < 6; ++pair) {
    const nlohmann::json f = run_json("fio --name=x --filename=" + file +
                                          " --rw=read --bs=1M --direct=1 --ioengine=io_uring --iodepth=4 --size=128M"
                                          " --time_based --runtime=1 --output-format=json --output=" + out + " >/dev/null",
                                      out);
    const double fio_bw = f["jobs"][0]["read"]["bw_bytes"].get<double>();
    // fio's job process calls setsid(), so under autogroup scheduling it gets a CPU share
    // of its own; iowall gets the same, instead of sharing the test runner's with
    // whatever else runs (a compiler under ctest -j halved it).
    const nlohmann::json i = run_json("setsid -w " + iowall + " measure -f " + file +
                                          " -i 1M -x cpu_only --engine io_uring --qd 4 -I read --runtime '1 s'"
                                          " --output-format json --quiet --output " + out,
                                      out);
    const double iowall_bw = i["iowall"]["repeats"][0]["read"]["bw_bytes"].get<double>();
    REQUIRE(fio_bw > 0);
    if (pair > 0) ratios.push_back(iowall_bw / fio_bw);
  }
  const double r = iowall::calib::median(ratios);
  std::string listed;
  for (double x : ratios) listed += std::to_string(x) + " ";
  INFO("pair ratios iowall/fio: " << listed);
  CHECK(r > 0.85);
  CHECK(r < 1.15);
}
#endif
