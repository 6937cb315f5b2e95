// Durable writes and checkpoint workloads against the bounds their mechanisms imply, on
// the GPU machine's topology (topologies/gpu-machine-h200.json: disk writes at 4.31 GB/s,
// flush 94.5 us, one H200 on Gen5 x16, 125 GiB of host memory).
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json run(const Json& workload, const Json& paths) {
  const Json doc = {{"name", "c"}, {"topology", "topologies/gpu-machine-h200.json"}, {"workload", workload}, {"paths", paths}};
  return to_json(run_scenario(scenario_from_json(doc, "c.json", IOWALL_SOURCE_DIR)));
}
const Json kWrite = {{"kind", "sequential_write"}, {"size", "1 GiB"}, {"io_size", "1 MiB"},
                     {"targets", "dram0"}, {"storage", "disk0"}, {"durability", "fsync_end"}};
constexpr double kDiskWrite = 4.31e9, kGiB = 1073741824.0, kFlush = 94.5e-6;
// Writing 1 GiB into the page cache from one thread, 1 MiB at a time: 1,024 write() calls of
// 2 us (cpu_cached syscall_cost), 262,144 pages filled at 0.6 us each (write_page_cost), and
// the copy at one core's 7.3 GB/s (the topology's memcpy_per_core): 0.306 s, slower than the
// disk's 0.249 s, as the GPU machine's buffered writes of GiBs are (3.9-4.4 GB/s).
constexpr double kPageCacheWrite = 1024 * 2e-6 + 262144 * 0.6e-6 + kGiB / 7.3e9;
const Json& phase(const Json& m, const char* name) {
  for (const Json& p : m["phases"])
    if (p["name"] == name) return p;
  FAIL("no phase " << name);
  return m;
}
}  // namespace

TEST_CASE("buffered writes are durable only after writeback: fsync takes what the disk needs", "[workload][durability]") {
  const Json r = run(kWrite, {"cpu_cached", "cpu_only"});
  const Json& b = r["metrics"]["cpu_cached"];
  // 1 GiB stays under the background threshold (10% of 125 GiB): nothing is written back
  // while writing, so the final fsync writes all of it back at no more than the disk's
  // write rate, then flushes (kFlush).
  const double writes = b["write_phase_s"], durable = b["durable_s"];
  CHECK(durable - writes >= kGiB / kDiskWrite + kFlush - 1e-6);
  CHECK(durable - writes < 1.1 * (kGiB / kDiskWrite) + 0.002);
  CHECK(phase(b, "fsync")["limited_by"]["resource"] == "disk0/media_write");
  CHECK(phase(b, "write")["limited_by"]["resource"] == "cpu0/thread0");
  // The write phase is the copy into the page cache and nothing else.
  CHECK(writes == Approx(kPageCacheWrite).epsilon(0.02));
  // O_DIRECT writes are durable as they complete (the virtio disk keeps no volatile
  // cache): one flush after the last write.
  const Json& d = r["metrics"]["cpu_only"];
  CHECK(double(d["durable_s"]) - double(d["write_phase_s"]) == Approx(kFlush).margin(1e-6));
  CHECK(double(d["durable_s"]) >= kGiB / kDiskWrite);
}

TEST_CASE("durability none leaves the data dirty, fsync_each and o_dsync pay per write", "[workload][durability]") {
  Json none = kWrite;
  none["durability"] = "none";
  const Json n = run(none, {"cpu_cached"})["metrics"]["cpu_cached"];
  CHECK(n["durable_s"].is_null());
  CHECK(double(n["last_done_s"]) == Approx(kPageCacheWrite).epsilon(0.02));  // done when in the page cache
  Json each = kWrite;
  each["durability"] = "fsync_each";
  each["fsync_every"] = 64;
  const Json e = run(each, {"cpu_cached"})["metrics"]["cpu_cached"];
  // 16 fsyncs of 64 MiB each: write-back of each group is in series with the writing,
  // so the total is at least the disk's time plus 16 flushes.
  CHECK(double(e["durable_s"]) >= kGiB / kDiskWrite + 16 * kFlush);
  Json dsync = kWrite;
  dsync["durability"] = "o_dsync";
  const Json o = run(dsync, {"cpu_only"})["metrics"]["cpu_only"];
  // Every 1 MiB write waits for its flush: 1024 flushes at QD1.
  CHECK(double(o["durable_s"]) >= 1024 * kFlush + kGiB / kDiskWrite);
}

TEST_CASE("a bad durability is an input error with its pointer", "[workload][durability]") {
  Json bad = kWrite;
  bad["durability"] = "sometimes";
  CHECK_THROWS_WITH(run(bad, {"cpu_cached"}), Catch::Contains("/workload/durability"));
  Json read = kWrite;
  read["kind"] = "sequential_read";
  CHECK_THROWS_AS(run(read, {"cpu_cached"}), InputError);
}

TEST_CASE("checkpoint save: d2h into new memory is bound by page faults, pinned by the link", "[workload][checkpoint]") {
  const Json save = {{"kind", "checkpoint_save"}, {"size", "2 GiB"}, {"tensors", 8}, {"host_memory", "pageable_fresh"},
                     {"durability", "fsync_end"}, {"targets", "gpu0"}, {"storage", "disk0"}};
  const Json m = run(save, {"cpu_cached"})["metrics"]["cpu_cached"];
  // New 4 KiB pages: 1.27 us per fault + 4 KiB zeroed at 5.77 GB/s = 1.98 us per page
  // before the staged copy (17.3 GB/s) of the same chunk: 2 GiB take at least
  // 524,288 x 1.98 us = 1.04 s, and the copy's CPU part 2 GiB / 17.3 GB/s = 0.124 s more.
  const double pages = 2 * kGiB / 4096, fault = 1.27e-6 + 4096 / 5.77e9;
  const double d2h = phase(m, "d2h")["seconds"];
  CHECK(d2h >= pages * fault + 2 * kGiB / 17.3e9 - 1e-3);
  CHECK(d2h < 1.05 * (pages * fault + 2 * kGiB / 17.3e9) + 1e-3);
  CHECK(phase(m, "fsync")["limited_by"]["resource"] == "disk0/media_write");
  CHECK(m["durable_s"] == m["last_done_s"]);
  // Pinned memory: one call per tensor, then the copy engine over Gen5 x16 (at most
  // ~55 GB/s of data after TLP overhead).
  Json pinned = save;
  pinned["host_memory"] = "pinned";
  const Json p = run(pinned, {"cpu_cached"})["metrics"]["cpu_cached"];
  const double pinned_d2h = phase(p, "d2h")["seconds"];
  CHECK(pinned_d2h >= 2 * kGiB / 64e9);
  CHECK(pinned_d2h < 2 * kGiB / 40e9);
}

TEST_CASE("a save of phases is limited by what bound the phases that took most of its time", "[workload][checkpoint]") {
  // d2h into new memory (page faults on the thread: ~1.1 s for 2 GiB, above) and the
  // serialization's write() (the thread again) take longer than the fsync (the disk, about
  // 2 GiB / 4.31 GB/s = 0.5 s at most): the thread bounds the save, not the disk or the
  // flusher that worked a fraction of the time. Its busy share of the run is below 1.
  const Json save = {{"kind", "checkpoint_save"}, {"size", "2 GiB"}, {"tensors", 8}, {"host_memory", "pageable_fresh"},
                     {"durability", "fsync_end"}, {"targets", "gpu0"}, {"storage", "disk0"}};
  const Json m = run(save, {"cpu_cached"})["metrics"]["cpu_cached"];
  double thread_s = 0, total = 0;
  for (const Json& p : m["phases"]) {
    total += p["seconds"].get<double>();
    if (p["limited_by"]["resource"] == m["limited_by"]["resource"]) thread_s += p["seconds"].get<double>();
  }
  INFO(m.dump());
  CHECK(m["limited_by"]["resource"].get<std::string>().find("thread") != std::string::npos);
  CHECK(thread_s > total / 2);
  CHECK(m["limited_by"]["utilization"].get<double>() <= thread_s / total + 1e-4);
}

TEST_CASE("a checkpoint's new file takes its blocks' allocation longer to make durable than an overwrite",
          "[workload][checkpoint][durability]") {
  // A framework's save creates its file, so writeback allocates the blocks as it sends the
  // pages (cpu_cached new_block_cost, 0.22 us a 4 KiB page on the flusher's pass). With the
  // flusher the bound (2 GB/s, under the drive's 4.31 GB/s, as on the GPU machine's VMs),
  // 1 GiB written below the background threshold and fsynced at the end is 262,144 pages:
  // the fsync takes 57.7 ms more for a new file than for an overwrite (within 3%), and the
  // writes themselves are no slower (the page cache takes both alike).
  const Json save = {{"kind", "checkpoint_save"}, {"size", "1 GiB"}, {"tensors", 8}, {"host_memory", "pinned"},
                     {"targets", "gpu0"}, {"storage", "disk0"}};
  Json over = save;
  over["file"] = "overwrite";
  const Json path = Json::array({{{"name", "cpu_cached"}, {"flusher_bandwidth", "2 GB/s"}}});
  const Json n = run(save, path)["metrics"]["cpu_cached"];
  const Json o = run(over, path)["metrics"]["cpu_cached"];
  const double extra = phase(n, "fsync")["seconds"].get<double>() - phase(o, "fsync")["seconds"].get<double>();
  CHECK(extra >= 0.97 * 262144 * 0.22e-6);
  CHECK(extra <= 1.03 * 262144 * 0.22e-6);
  CHECK(phase(n, "serialize_write")["seconds"].get<double>() == phase(o, "serialize_write")["seconds"].get<double>());
  // A restore writes no file; an unknown file mode names its pointer.
  Json load = {{"kind", "checkpoint_load"}, {"size", "64 MiB"}, {"targets", "gpu0"}, {"storage", "disk0"},
               {"file", "new"}};
  CHECK_THROWS_WITH(run(load, {"cpu_cached"}), Catch::Contains("/workload/file"));
  Json bad = save;
  bad["file"] = "fresh";
  CHECK_THROWS_WITH(run(bad, {"cpu_cached"}), Catch::Contains("/workload/file"));
}

TEST_CASE("checkpoint load reads the file cold, then copies it to the GPU", "[workload][checkpoint]") {
  const Json load = {{"kind", "checkpoint_load"}, {"size", "1 GiB"}, {"tensors", 8}, {"host_memory", "pageable"},
                     {"qd", 2}, {"targets", "gpu0"}, {"storage", "disk0"}};
  const Json m = run(load, {"cpu_cached"})["metrics"]["cpu_cached"];
  // A cold read is no faster than the disk (3.54 GB/s); h2d from pageable memory no faster
  // than the driver's staging copy (9.7 GB/s).
  CHECK(double(phase(m, "read")["seconds"]) >= kGiB / 3.54e9);
  CHECK(double(phase(m, "h2d")["seconds"]) >= kGiB / 9.7e9);
  CHECK(!m.contains("durable_s"));  // a restore writes nothing
  // Restore keys of a save are refused.
  Json bad = load;
  bad["durability"] = "fsync_end";
  CHECK_THROWS_WITH(run(bad, {"cpu_cached"}), Catch::Contains("/workload/durability"));
}

TEST_CASE("a restore into new GPU blocks pays cudaMalloc per tensor before its copy, cached blocks do not",
          "[workload][checkpoint]") {
  // 1 GiB in 64 tensors of 16 MiB copied to the GPU from pageable memory. Into fresh blocks the
  // thread first spends the gpu's fresh_block_cost (18.5 us) plus 16 MiB at fresh_block_bandwidth
  // (158 GB/s: 106.2 us) per tensor, synchronously: 64 x 124.7 us = 7.98 ms more h2d than into
  // blocks the caching allocator holds. The read phase is the same either way.
  Json load = {{"kind", "checkpoint_load"}, {"size", "1 GiB"}, {"tensors", 64}, {"host_memory", "pageable"},
               {"targets", "gpu0"}, {"storage", "disk0"}};
  const Json fresh = run(load, {"cpu_cached"})["metrics"]["cpu_cached"];  // the default
  load["gpu_memory"] = "cached";
  const Json cached = run(load, {"cpu_cached"})["metrics"]["cpu_cached"];
  const double per_tensor = 18.5e-6 + 16 * 1048576.0 / 158e9;
  const double extra = phase(fresh, "h2d")["seconds"].get<double>() - phase(cached, "h2d")["seconds"].get<double>();
  CHECK(extra == Approx(64 * per_tensor).epsilon(0.01));
  CHECK(phase(fresh, "read")["seconds"].get<double>() == phase(cached, "read")["seconds"].get<double>());
  // A save allocates nothing on the GPU: the key is refused there, and an unknown kind named.
  const Json save = {{"kind", "checkpoint_save"}, {"size", "64 MiB"}, {"targets", "gpu0"}, {"storage", "disk0"},
                     {"gpu_memory", "fresh"}};
  CHECK_THROWS_WITH(run(save, {"cpu_cached"}), Catch::Contains("/workload/gpu_memory"));
  load["gpu_memory"] = "pinned";
  CHECK_THROWS_WITH(run(load, {"cpu_cached"}), Catch::Contains("/workload/gpu_memory"));
}

TEST_CASE("the kernel's asynchronous readahead overlaps the disk with the reader's faults and copies",
          "[workload][checkpoint][readahead]") {
  // One blocking reader of 1 GiB into new pageable memory (a fault per 4 KiB page): with
  // POSIX_FADV_RANDOM the kernel reads only what each read() asks, so the disk's time and
  // the thread's add up; with readahead (the GPU VM's read_ahead_kb 8 MiB) the next window
  // is read while the reader copies and faults, and the read phase is the longer of the two.
  const Json load = {{"kind", "checkpoint_load"}, {"size", "1 GiB"}, {"tensors", 8}, {"host_memory", "pageable_fresh"},
                     {"qd", 1}, {"targets", "gpu0"}, {"storage", "disk0"}};
  const Json kAhead = {{"name", "cpu_cached"}, {"read_ahead", "8 MiB"}};
  const Json none = run(load, {{{"name", "cpu_cached"}, {"fadvise", "random"}}})["metrics"]["cpu_cached"];
  const Json ahead = run(load, Json::array({kAhead}))["metrics"]["cpu_cached"];
  Json mapped = load;
  mapped["host_memory"] = "pageable";
  const Json disk = run(mapped, Json::array({kAhead}))["metrics"]["cpu_cached"];
  const double t_none = phase(none, "read")["seconds"], t_ahead = phase(ahead, "read")["seconds"];
  const double t_disk = phase(disk, "read")["seconds"];
  CHECK(t_ahead < 0.8 * t_none);
  CHECK(t_ahead >= t_disk);                        // never faster than the disk alone
  CHECK(t_disk >= kGiB / 3.54e9);                  // nor than the drive's read ceiling
  CHECK(phase(ahead, "read")["limited_by"]["utilization"].get<double>() > 0.95);  // the thread, never idle
  // Every byte is read from the disk once (a read waits for the piece on the way), plus at
  // most the two windows readahead keeps past the file's end (the path knows only the
  // disk's end).
  const Json stats = run(load, Json::array({kAhead}))["stats"]["cpu_cached"];
  CHECK(stats["disk0/bytes_read"]["value"].get<double>() <= kGiB + 2 * 8 * 1048576.0);
}

TEST_CASE("checkpoint save: a rank's thread is named as the path names it, cuFile ignores host buffers",
          "[workload][checkpoint]") {
  // The rank's thread and the path's per-thread gauge are one thread: one name (cpu0/thread0).
  const Json save = {{"kind", "checkpoint_save"}, {"size", "256 MiB"}, {"tensors", 8}, {"targets", "gpu0"},
                     {"storage", "disk0"}};
  const Json m = run(save, {"cpu_cached"})["metrics"]["cpu_cached"];
  CHECK(phase(m, "d2h")["limited_by"]["resource"] == "cpu0/thread0");
  // A write run reports what it dirtied, not read hits and misses it never had.
  const std::string note = m["note"];
  CHECK(note.find("256 MiB dirtied") != std::string::npos);
  CHECK(note.find("hits") == std::string::npos);
  // "pipeline": "overlapped" with cuFile (no host buffers): exactly the state is written,
  // once, with one fsync phase.
  Json o = save;
  o["pipeline"] = "overlapped";
  o["host_memory"] = "pinned";
  const Json g = run(o, {"gpu_direct"})["metrics"]["gpu_direct"];
  CHECK(g["bytes"].get<double>() == 256 * 1048576.0);
  int fsyncs = 0;
  for (const Json& p : g["phases"]) fsyncs += p["name"] == "fsync";
  CHECK(fsyncs == 1);
}

TEST_CASE("a mapped load copies nothing while it reads and faults the mapping in on the way to the GPU",
          "[workload][checkpoint][mapped]") {
  // safetensors maps its file: the read phase only fills the page cache (no copy into the
  // rank's memory, no fault), so the disk bounds it, never the rank's thread, and it is
  // faster than read() into new memory, which the thread's faults and copies bound; the copy
  // to the GPU reads the mapping, faulting it in 64 KiB (fault_around) at a time at 5.36 us
  // a fault (cpu_socket mapped_fault_cost): 1 GiB is 16,384 faults, 87.8 ms more than the
  // same copy out of the memory read() filled.
  // (64 tensors of 16 MiB: each view brings its whole tensor in; see below for larger ones.)
  const Json read = {{"kind", "checkpoint_load"}, {"size", "1 GiB"}, {"tensors", 64},
                     {"host_memory", "pageable_fresh"}, {"qd", 1}, {"targets", "gpu0"}, {"storage", "disk0"}};
  Json mapped = read;
  mapped.erase("host_memory");
  mapped["reader"] = "mapped";
  const Json kAhead = Json::array({{{"name", "cpu_cached"}, {"read_ahead", "8 MiB"}}});
  const Json r = run(read, kAhead)["metrics"]["cpu_cached"];
  const Json m = run(mapped, kAhead)["metrics"]["cpu_cached"];
  const double read_r = phase(r, "read")["seconds"], read_m = phase(m, "read")["seconds"];
  CHECK(phase(r, "read")["limited_by"]["resource"] == "cpu0/thread0");
  CHECK(phase(m, "read")["limited_by"]["resource"] != "cpu0/thread0");
  CHECK(read_m < read_r);
  CHECK(read_m >= kGiB / 3.54e9);
  // One read phase, then one h2d phase (a cached piece completes after its submit returns,
  // never inside it, so the read phase ends once).
  std::vector<std::string> names;
  for (const Json& p : m["phases"]) names.push_back(p["name"]);
  CHECK(names == std::vector<std::string>{"read", "h2d"});
  const double faults = 16384 * 5.36e-6;
  const double extra = phase(m, "h2d")["seconds"].get<double>() - phase(r, "h2d")["seconds"].get<double>();
  CHECK(extra >= 0.95 * faults);
  CHECK(extra <= 1.05 * faults);
  // A mapping needs a page cache; it has no host memory of its own; a save maps nothing.
  CHECK_THROWS_WITH(run(mapped, {"cpu_only"}), Catch::Contains("/workload/reader"));
  Json both = mapped;
  both["host_memory"] = "pageable";
  CHECK_THROWS_WITH(run(both, kAhead), Catch::Contains("/workload/host_memory"));
  const Json save = {{"kind", "checkpoint_save"}, {"size", "64 MiB"}, {"targets", "gpu0"}, {"storage", "disk0"},
                     {"reader", "mapped"}};
  CHECK_THROWS_WITH(run(save, {"cpu_cached"}), Catch::Contains("/workload/reader"));
}

TEST_CASE("a mapped load brings each tensor's start in at once, and the disk waits while the thread allocates the "
          "next one's pages", "[workload][checkpoint][mapped]") {
  // Each tensor view brings its 16 MiB range in at once (the GPU machine's safetensors
  // load: one major fault per tensor, the disk idle between tensors): the thread first
  // allocates the range's 4,096 pages (cpu_cached view_page_cost, 0.66 us each), then the
  // range goes out as 4 requests of max_sectors (4 MiB), and the next tensor starts only
  // when all are cached. Nothing overlaps, so the read phase is the disk's time plus every
  // page's allocation: 64 tensors of 16 MiB are 262,144 pages, 0.173 s more than with the
  // cost set to 0 (within 2%), and the disk reads the GiB once. A warm page cache allocates
  // and reads nothing.
  const Json load = {{"kind", "checkpoint_load"}, {"size", "1 GiB"}, {"tensors", 64}, {"qd", 1},
                     {"targets", "gpu0"}, {"storage", "disk0"}, {"reader", "mapped"}};
  const Json path = {{"name", "cpu_cached"}, {"read_ahead", "8 MiB"}, {"max_sectors", "4 MiB"}};
  Json free_path = path;
  free_path["view_page_cost"] = "0 us";
  const Json r = run(load, Json::array({path}));
  const Json f = run(load, Json::array({free_path}));
  const double extra = phase(r["metrics"]["cpu_cached"], "read")["seconds"].get<double>() -
                       phase(f["metrics"]["cpu_cached"], "read")["seconds"].get<double>();
  const double alloc = 262144 * 0.66e-6;
  CHECK(extra >= 0.98 * alloc);
  CHECK(extra <= 1.02 * alloc);
  auto read_bytes = [](const Json& x) { return x.at("stats").at("cpu_cached").at("disk0/bytes_read").at("value"); };
  CHECK(read_bytes(r).get<double>() == kGiB);
  // A view brings in at most 2 x read_ahead (16 MiB): of 4 tensors of 256 MiB the read phase
  // reads 64 MiB (6.25% of the bytes: under 10% of the time of reading them all), and the
  // copy to the GPU reads the rest by readahead as it touches the pages: the GiB is still read
  // once (readahead stops at the file's end), and that copy takes longer than one whose
  // pages are all cached.
  Json big = load;
  big["tensors"] = 4;
  const Json b = run(big, Json::array({path}));
  const Json& bm = b["metrics"]["cpu_cached"];
  const Json& rm = r["metrics"]["cpu_cached"];
  CHECK(phase(bm, "read")["seconds"].get<double>() < 0.10 * phase(rm, "read")["seconds"].get<double>());
  CHECK(read_bytes(b).get<double>() == kGiB);
  CHECK(phase(bm, "h2d")["seconds"].get<double>() > phase(rm, "h2d")["seconds"].get<double>());
  Json warm_path = path;
  warm_path["cache_at_start"] = "warm";
  const Json w = run(load, Json::array({warm_path}));
  CHECK(read_bytes(w).get<double>() == 0);
  CHECK(phase(w["metrics"]["cpu_cached"], "read")["seconds"].get<double>() < 1e-3);
}

TEST_CASE("local storage on a VM is its virtual disk: the drive under it is reached through it",
          "[workload][checkpoint][storage]") {
  // topologies/gpu-machine-h200.json: vda (virtio_blk) in front of disk0. A program in the VM
  // sees vda only, so "local" (and "all") mean vda, whose device thread and passes a cold
  // read then pays; naming disk0 still reads the drive bare. Through vda the read is no
  // faster than bare (the virtual disk only adds work).
  const Json load = {{"kind", "checkpoint_load"}, {"size", "256 MiB"}, {"tensors", 4}, {"host_memory", "pageable"},
                     {"targets", "gpu0"}, {"storage", "local"}};
  const Json local = run(load, {"cpu_cached"});
  Json named = load;
  named["storage"] = "disk0";
  const Json bare = run(named, {"cpu_cached"});
  auto vda_ios = [](const Json& r) { return r["stats"]["cpu_cached"]["vda/ios"]["value"].get<double>(); };
  CHECK(vda_ios(local) > 0);
  CHECK(vda_ios(bare) == 0);
  CHECK(phase(local["metrics"]["cpu_cached"], "read")["seconds"].get<double>() >=
        phase(bare["metrics"]["cpu_cached"], "read")["seconds"].get<double>());
  Json all = load;
  all["storage"] = "all";
  CHECK(vda_ios(run(all, {"cpu_cached"})) > 0);
}

TEST_CASE("a phase whose thread and disk take turns is limited by the two in series", "[workload][checkpoint][limit]") {
  // The mapped load above: the thread allocates each view's 4,096 pages (0.66 us each,
  // 2.7 ms), then waits while the disk reads the 16 MiB (~6 ms: the whole GiB takes the
  // disk's controller 0.38 s): the thread is busy ~31% of the read phase and the disk
  // ~69%, neither over 85%, together the whole phase, so the phase names both, at the sum
  // of their shares (>= 90%). With the allocation free the disk works alone, busy nearly
  // all the phase, and is named alone.
  const Json load = {{"kind", "checkpoint_load"}, {"size", "1 GiB"}, {"tensors", 64}, {"qd", 1},
                     {"targets", "gpu0"}, {"storage", "disk0"}, {"reader", "mapped"}};
  const Json path = {{"name", "cpu_cached"}, {"read_ahead", "8 MiB"}, {"max_sectors", "4 MiB"}};
  Json free_path = path;
  free_path["view_page_cost"] = "0 us";
  const Json r = run(load, Json::array({path})), f = run(load, Json::array({free_path}));
  const Json& series = phase(r["metrics"]["cpu_cached"], "read")["limited_by"];
  CHECK(series["resource"] == "cpu0/thread0 in series with disk0/controller");
  CHECK(series["utilization"].get<double>() >= 0.9);
  const Json& alone = phase(f["metrics"]["cpu_cached"], "read")["limited_by"];
  CHECK(alone["resource"] == "disk0/controller");
  CHECK(alone["utilization"].get<double>() >= 0.85);
  // read() into memory the rank already has: the kernel's readahead keeps a window in
  // flight while the thread copies the last one out, so the disk never waits for the
  // thread (busy the whole phase) and the two overlap rather than take turns: the disk
  // alone bounds the phase, though the thread works much of it too.
  Json into_memory = load;
  into_memory.erase("reader");
  into_memory["host_memory"] = "pageable";
  const Json o = run(into_memory, Json::array({path}));
  const Json& overlapped = phase(o["metrics"]["cpu_cached"], "read")["limited_by"];
  CHECK(overlapped["resource"] == "disk0/controller");
  CHECK(overlapped["utilization"].get<double>() >= 0.95);
}
