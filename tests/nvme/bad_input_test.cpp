// Bad NVMe input ends `iowall run` with one line naming the file and JSON pointer, exit 2.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {
std::pair<int, std::string> run_with(const std::string& sets) {
  const std::string err = "/tmp/iowall_nvme_bad_" + std::to_string(getpid()) + ".err";
  const std::string cmd = std::string(IOWALL_BINARY) + " run " + IOWALL_SOURCE_DIR +
                          "/scenarios/nvme-preset-qd.json -q --set '/sweep={}' " + sets + " >/dev/null 2>" + err;
  const int status = std::system(cmd.c_str());
  std::ifstream in(err);
  std::stringstream ss;
  ss << in.rdbuf();
  std::remove(err.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ss.str()};
}
}  // namespace

TEST_CASE("bad NVMe input: one line with file and pointer, exit 2", "[nvme][errors]") {
  struct Case {
    std::string sets, expect;
  };
  const std::vector<Case> cases = {
      {"--set /workload/qd=0", "/workload/qd"},
      {"--set /workload/qd=5000", "/workload/qd: queue depth 5000 is above nvme0's limit of 1023"},
      {"--set '/topology/devices/3/driver={\"queue_entries\":8192}'",
       "/topology/devices/3/driver/queue_entries: 8192 entries exceed"},
      {"--set '/topology/devices/3/driver={\"cid_bits\":20}'",
       "/topology/devices/3/driver/cid_bits: 20-bit CIDs need the drive's 32-bit CID extension"},
      {"--set '/topology/devices/3/driver=\"napi\"'", "/topology/devices/3/driver"},
      {"--set '/topology/devices/3/driver={\"model\":\"polled\",\"msix_vectors\":4}'",
       "/topology/devices/3/driver"},
      {"--set '/topology/devices/3/preset=\"optane_p9999\"'", "/topology/devices/3"},
      {"--set '/workload/io_size=\"6 KiB\"'", "/workload/io_size: 6 KiB is not a multiple of nvme0's LBA size 4 KiB"},
      {"--set '/topology/devices/3/doorbell_stride=\"12 B\"'", "/topology/devices/3/doorbell_stride: 12 B is not 4 << CAP.DSTRD"},
      {"--set '/topology/devices/3/driver={\"shadow_doorbells\":true}'",
       "/topology/devices/3/driver/shadow_doorbells: the controller does not support Doorbell Buffer Config"},
  };
  for (const Case& c : cases) {
    const auto [code, err] = run_with(c.sets);
    INFO(c.sets << " -> " << err);
    CHECK(code == 2);
    CHECK(err.find("nvme-preset-qd.json") != std::string::npos);
    CHECK(err.find(c.expect) != std::string::npos);
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  }
  // The 32-bit option makes wide CIDs legal.
  CHECK(run_with("--set '/topology/devices/3/driver={\"cid_bits\":20}' --set /topology/devices/3/cid_32bit=true --set "
                 "'/workload/size=\"1 MiB\"'")
            .first == 0);
}
