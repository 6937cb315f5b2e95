// nfs_rdma writes from gpu0 to the storage server of topologies/dgx2-storage.json: which
// WRITEs go UNSTABLE and how many COMMITs follow (the Linux client's O_DIRECT rule), that
// every byte reaches a drive exactly once whatever the stability, and that a COMMIT
// waits for the drives.
#include <catch2/catch.hpp>

#include "tests/nfs/nfs_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
Json nfs_writes(const std::string& size, const std::string& io_size, int threads, int qd,
                const std::string& drives = kServerDrives) {
  Json w = nfs_reads(size, io_size, threads, qd);
  w["kind"] = "sequential_write";
  w["storage"] = drives;
  return w;
}
double drive_bytes_written(const Json& r, const std::string& label) {
  double sum = 0;
  for (const auto& [key, value] : r["stats"][label].items())
    if (key.starts_with("snvme") && key.ends_with("/bytes_written")) sum += value["value"].get<double>();
  return sum;
}
}  // namespace

TEST_CASE("O_DIRECT WRITEs over NFS go UNSTABLE when an I/O needs several, then one COMMIT", "[nfs][write]") {
  struct Case {
    const char *io_size, *stability;
    double unstable, commits;  // 256 MiB written, wsize 1 MiB
  };
  const Case cases[] = {
      {"4 MiB", "cond_stable", 256, 64},  // 64 I/Os of four WRITEs: all unstable, a COMMIT each
      {"1 MiB", "cond_stable", 0, 0},     // one WRITE per I/O: FILE_SYNC, no COMMIT
      {"4 MiB", "file_sync", 0, 0},
      {"1 MiB", "unstable", 256, 256},
  };
  for (const Case& c : cases) {
    const Json r = run_nfs(nfs_writes("256 MiB", c.io_size, 2, 2),
                           Json::array({nfs_path("nfs", {{"write_stability", c.stability}})}));
    INFO(c.io_size << " I/Os, " << c.stability);
    CHECK(nfs_stat(r, "nfs", "nfs_client/unstable_writes", "value") == c.unstable);
    CHECK(nfs_stat(r, "nfs", "nfs_client/commits", "value") == c.commits);
    // Durable either way: every byte on a drive once (an unstable WRITE touches none,
    // its COMMIT writes it).
    CHECK(drive_bytes_written(r, "nfs") == 256.0 * (1 << 20));
  }
}

TEST_CASE("a COMMIT waits for the drives: unstable writes are no faster than the drives take them",
          "[nfs][write][bound]") {
  // One PM1743 (write bandwidth 6.6 GB/s, preset) behind a 100 Gb/s client port (about
  // 12.2 GB/s of RoCE payload): the drive binds. Were an unstable write's data left in
  // the server's memory uncommitted, the port would (about 12 GB/s).
  const double drive = 6.6;
  for (const char* stability : {"cond_stable", "file_sync", "unstable"}) {
    const Json r = run_nfs(nfs_writes("1 GiB", "4 MiB", 8, 2, "snvme0"),
                           Json::array({nfs_path("nfs", {{"write_stability", stability}}, "snvme0")}));
    const double gbps = r["metrics"]["nfs"]["throughput_GBps"];
    INFO(stability << ": " << gbps << " GB/s against the drive's " << drive);
    CHECK(gbps <= drive);
    CHECK(gbps >= 0.8 * drive);
  }
}

TEST_CASE("one unstable I/O takes its data's transfer, then the COMMIT's round trip and drive write",
          "[nfs][write][latency]") {
  // One thread, QD1, 4 MiB over four drives (1 MiB each). Lower bound for either
  // stability: the 4 MiB cross the 100 Gb/s port (4 MiB / 12.2 GB/s = 344 us) before the
  // last piece can be written (1 MiB / 6.6 GB/s = 159 us): 503 us. The COMMIT starts only
  // when every WRITE is replied, so it cannot beat FILE_SYNC, whose drive writes overlap
  // the later pieces' transfers.
  auto p50 = [](const char* stability) {
    const Json r = run_nfs(nfs_writes("64 MiB", "4 MiB", 1, 1, "snvme0,snvme1,snvme2,snvme3"),
                           Json::array({nfs_path("nfs", {{"write_stability", stability}},
                                                 "snvme0,snvme1,snvme2,snvme3")}));
    return r["metrics"]["nfs"]["latency_p50_us"].get<double>();
  };
  const double cond = p50("cond_stable"), sync = p50("file_sync");
  INFO("cond_stable " << cond << " us, file_sync " << sync << " us");
  CHECK(sync >= 503);
  CHECK(cond >= sync);
}

TEST_CASE("an unknown write stability is refused, naming the key", "[nfs][write][input]") {
  CHECK_THROWS_WITH(run_nfs(nfs_writes("64 MiB", "4 MiB", 1, 1), Json::array({nfs_path("nfs", {{"write_stability", "async"}})})),
                    Catch::Contains("write_stability"));
}

TEST_CASE("an export on the server's md RAID0: the array places the bytes and one COMMIT writes them", "[nfs][write][raid0]") {
  // The server's eight drives as one md RAID0 (512 KiB chunks); the NFS path names the
  // array as its one store. 64 I/Os of 4 MiB, cond_stable: four UNSTABLE WRITEs each
  // and one COMMIT, which the array splits into 8 pieces of 512 KiB, one per member.
  Json topo = dgx2_storage_topology();
  topo["devices"].push_back({{"id", "md0"}, {"model", "md_raid0"}, {"members", kServerDrives}, {"chunk", "512 KiB"}});
  const Json r = run_nfs(nfs_writes("256 MiB", "4 MiB", 4, 1), Json::array({nfs_path("nfs", Json::object(), "md0")}), topo);
  CHECK(nfs_stat(r, "nfs", "nfs_client/unstable_writes", "value") == 256);
  CHECK(nfs_stat(r, "nfs", "nfs_client/commits", "value") == 64);
  CHECK(nfs_stat(r, "nfs", "md0/pieces", "value") == 64 * 8);
  // Every member holds an equal eighth: 32 MiB each.
  for (int i = 0; i < 8; ++i)
    CHECK(nfs_stat(r, "nfs", "snvme" + std::to_string(i) + "/bytes_written", "value") == 32.0 * (1 << 20));
}

TEST_CASE("one nfsd thread runs a whole COMMIT: its drives write at once", "[nfs][write][nfsd]") {
  // One thread, QD1, 16 MiB I/Os over the eight drives (2 MiB each), a single nfsd
  // thread. The WRITEs cross the 100 Gb/s port (16 MiB / 12.2 GB/s = 1375 us), then the
  // COMMIT writes 2 MiB on each drive at once (2 MiB / 6.6 GB/s = 318 us): about 1.7 ms.
  // Were each drive's write to need a thread of its own, they would take turns on the
  // one thread: 8 x 318 us more than 2.5 ms on top of the transfer.
  const Json r = run_nfs(nfs_writes("256 MiB", "16 MiB", 1, 1),
                         Json::array({nfs_path("nfs", {{"nfsd_threads", 1}})}));
  const double p50 = r["metrics"]["nfs"]["latency_p50_us"];
  INFO("16 MiB I/O: " << p50 << " us");
  CHECK(p50 >= 1375 + 318);
  CHECK(p50 <= 1.25 * (1375 + 318));
}

TEST_CASE("an export on ext4: the server's fsync of each COMMIT or FILE_SYNC WRITE commits the journal only for a change",
          "[nfs][write][ext4]") {
  // ext4 on the server's md RAID0. 64 I/Os of 4 MiB, cond_stable: 64 COMMITs, each an
  // fsync of the file on the server. A new file: every COMMIT's range was allocated by its
  // WRITEs, so each fsync commits a jbd2 transaction (64 commits, group commit may merge
  // fsyncs that meet; never more than 64). The same file already written: no allocation,
  // and the coarse timestamp changes at most once per 4 ms tick, so few commits.
  const auto commits = [](const char* existing) {
    Json topo = dgx2_storage_topology();
    topo["devices"].push_back({{"id", "md0"}, {"model", "md_raid0"}, {"members", kServerDrives}, {"chunk", "512 KiB"}});
    topo["devices"].push_back({{"id", "fs0"}, {"model", "ext4"}, {"device", "md0"}, {"existing_file_size", existing}});
    const Json r = run_nfs(nfs_writes("256 MiB", "4 MiB", 4, 1), Json::array({nfs_path("nfs", Json::object(), "fs0")}), topo);
    CHECK(nfs_stat(r, "nfs", "nfs_client/commits", "value") == 64);
    const double took = nfs_stat(r, "nfs", "fs0/commits", "value");
    CHECK(nfs_stat(r, "nfs", "fs0/syncs", "value") == 64);  // one fsync per COMMIT
    // The data reached the members once, the journal beside it.
    double written = 0;
    for (int i = 0; i < 8; ++i) written += nfs_stat(r, "nfs", "snvme" + std::to_string(i) + "/bytes_written", "value");
    CHECK(written >= 256.0 * (1 << 20));
    return took;
  };
  const double fresh = commits("0 B");
  INFO("new file: " << fresh << " commits");
  CHECK(fresh >= 16);
  CHECK(fresh <= 64);
  const double overwrite = commits("256 MiB");
  INFO("overwrite: " << overwrite << " commits");
  // The run lasts ~25 ms of simulated time: at most one timestamp change per 4 ms tick.
  CHECK(overwrite <= 10);
  CHECK(overwrite < fresh);
}
