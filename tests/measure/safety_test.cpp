// The refusals that keep `iowall measure` from writing what it was not told to write.
// Each is checked to refuse before anything is opened for writing.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "measure/mounts.hpp"
#include "measure/options.hpp"
#include "measure/target.hpp"
#include "measure_test_util.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {
// The device that holds "/", from /proc/self/mounts, if it is a block device node here.
std::string root_device() {
  std::ifstream in("/proc/self/mounts");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string source, point;
    struct stat st {};
    if (ls >> source >> point && point == "/" && ::stat(source.c_str(), &st) == 0 && S_ISBLK(st.st_mode))
      return source;
  }
  return {};
}

std::string refusal(const std::vector<std::string>& args) {
  try {
    testing::run_cli(args);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(not refused)";
}
}  // namespace

TEST_CASE("an existing file is not written without --allow-write", "[measure][safety]") {
  testing::ScratchDir dir;
  const std::string f = dir.file("precious.dat");
  testing::make_file(f, 1 << 20);
  const auto before = testing::fingerprint(f);
  for (const char* mode : {"write", "randwrite", "rw", "randrw", "1", "3"}) {
    INFO(mode);
    const std::string msg = refusal({"-f", f, "-I", mode, "-i", "64 KiB", "--quiet"});
    CHECK_THAT(msg, Catch::Contains("--allow-write") && Catch::Contains("would overwrite"));
  }
  CHECK(testing::fingerprint(f) == before);
  CHECK(dir.entries() == std::vector<std::string>{"precious.dat"});
}

TEST_CASE("an existing file is never grown", "[measure][safety]") {
  testing::ScratchDir dir;
  const std::string f = dir.file("small.dat");
  testing::make_file(f, 64 << 10);
  const auto before = testing::fingerprint(f);
  const std::string msg =
      refusal({"-f", f, "-I", "write", "--allow-write", "-s", "1 MiB", "-i", "64 KiB", "-x", "cpu_cached"});
  CHECK_THAT(msg, Catch::Contains("never grows"));
  CHECK(testing::fingerprint(f) == before);
  struct stat st {};
  REQUIRE(::stat(f.c_str(), &st) == 0);
  CHECK(st.st_size == 64 << 10);
}

TEST_CASE("a directory is not a target", "[measure][safety]") {
  testing::ScratchDir dir;
  CHECK_THAT(refusal({"-f", dir.path(), "-s", "1 MiB"}), Catch::Contains("is a directory"));
  CHECK_THAT(refusal({"-f", dir.path(), "-I", "write", "-s", "1 MiB", "--allow-write"}),
             Catch::Contains("is a directory"));
  CHECK(dir.entries().empty());
}

TEST_CASE("destroy-data-on is only for block devices", "[measure][safety]") {
  testing::ScratchDir dir;
  const std::string f = dir.file("plain.dat");
  testing::make_file(f, 1 << 20);
  const auto before = testing::fingerprint(f);
  CHECK_THAT(refusal({"-f", f, "-I", "write", "-i", "64 KiB", "--destroy-data-on", f}),
             Catch::Contains("for block devices"));
  CHECK(testing::fingerprint(f) == before);
}

TEST_CASE("the device holding / is seen as mounted", "[measure][safety]") {
  const std::string dev = root_device();
  if (dev.empty()) {
    WARN("the root file system's source is not a block device node here; skipped");
    return;
  }
  struct stat st {};
  REQUIRE(::stat(dev.c_str(), &st) == 0);
  // Checked on its own first: no writing path is exercised unless this holds.
  const std::string busy = device_in_use(st.st_rdev);
  REQUIRE_FALSE(busy.empty());
  CHECK_THAT(busy, Catch::Contains("mounted"));
}

TEST_CASE("a mounted device is refused for writing, before it is opened", "[measure][safety]") {
  const std::string dev = root_device();
  if (dev.empty()) {
    WARN("the root file system's source is not a block device node here; skipped");
    return;
  }
  struct stat st {};
  REQUIRE(::stat(dev.c_str(), &st) == 0);
  REQUIRE_FALSE(device_in_use(st.st_rdev).empty());  // never go on unless it is seen as mounted

  MeasureOptions o;
  o.file = dev;
  o.destroy_data_on = dev;
  o.mode.read_pct = 0;
  o.mode_text = "write";
  o.size = Bytes(4 << 20);
  // inspect_target refuses with the mount; it opens nothing for writing.
  try {
    (void)inspect_target(o);
    FAIL("a mounted device was accepted for writing");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "--destroy-data-on");
    CHECK_THAT(e.message(), Catch::Contains("refusing to write") && Catch::Contains("mounted"));
  }
  // And through the command line, with and without --destroy-data-on.
  CHECK_THAT(refusal({"-f", dev, "-I", "write", "-s", "4 MiB", "--destroy-data-on", dev}),
             Catch::Contains("refusing to write"));
  CHECK_THAT(refusal({"-f", dev, "-I", "randwrite", "-s", "4 MiB"}), Catch::Contains("--destroy-data-on"));
}

TEST_CASE("destroy-data-on must name the target device", "[measure][safety]") {
  const std::string dev = root_device();
  if (dev.empty()) {
    WARN("no block device node for / here; skipped");
    return;
  }
  testing::ScratchDir dir;
  CHECK_THAT(refusal({"-f", dev, "-I", "write", "-s", "4 MiB", "--destroy-data-on", dir.path()}),
             Catch::Contains("is not the block device"));
}

TEST_CASE("a device with nothing on it is not reported in use", "[measure][safety]") {
  // Numbers that name no block device: no partitions, mounts, swap or holders.
  CHECK(device_in_use(makedev(4000, 4000)).empty());
}
