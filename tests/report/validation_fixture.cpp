#include "tests/report/validation_fixture.hpp"

#include <fstream>

#include "measure/calibrate.hpp"
#include "measure/validate.hpp"

namespace iowall::testing {

nlohmann::json small_validation_result() {
  using namespace iowall::calib;
  // Points shaped like a 2 GB/s, 80 us disk, with a +-3% spread over three repeats.
  const StorageParams disk{80e-6, 2e9, 200e3};
  static std::vector<PointGroup> groups;  // the result's rows point into these
  groups.clear();
  for (i64 size : {4096, 65536, 1 << 20})
    for (int threads : {1, 2}) {
      PointGroup g;
      g.xfer = "cpu_only";
      g.engine = "io_uring";
      g.io_mode = "read";
      g.io_size = size;
      g.threads = threads;
      const double bw = storage_throughput(disk, static_cast<double>(size), threads, 5e-6);
      for (double f : {0.97, 1.0, 1.03}) {
        Sample s;
        s.bw_bytes_per_s = bw * f;
        s.iops = s.bw_bytes_per_s / static_cast<double>(size);
        s.cpu_s_per_io = 5e-6;
        s.clat_p50_ns = 40'000;
        s.clat_p90_ns = 48'000;
        g.samples.push_back(s);
      }
      groups.push_back(g);
    }
  std::ifstream in(IOWALL_SOURCE_DIR "/topologies/cpu-machine.json");
  const nlohmann::json topo = nlohmann::json::parse(in);
  const ValidationResult v = validate(groups, Subset("threads=1"), topo, "topologies/cpu-machine.json");
  Profile full;
  full.name = "test-disk";
  return validation_json(v, full);
}

}  // namespace iowall::testing
