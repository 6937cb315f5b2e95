// A virtio block device over a stand-in host store of fixed latency
// (models/storage/virtio_blk.hpp): the sync device thread serves one request at a time,
// the async one overlaps its host calls, a notification costs only when the thread waits,
// and the host's cache mode decides where a write goes and what a flush does.
#include <catch2/catch.hpp>

#include <memory>
#include <utility>
#include <vector>

#include "models/storage/virtio_blk.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/fake_storage.hpp"

using namespace iowall;
using iowall::testing::FakeRoutes;

namespace {
constexpr i64 KiB = 1024, MiB = 1024 * KiB;

// The host's store: every read or write takes `latency`, a flush `flush_latency`.
class TimedStore final : public Device, public BlockStorage {
public:
  TimedStore(SimContext& ctx, Time latency, Time flush_latency)
      : Device(Params(Json{{"id", "host0"}, {"model", "fake"}}, {"f.json", "/host0"}), ctx),
        BlockStorage(static_cast<Device&>(*this)),
        latency_(latency),
        flush_latency_(flush_latency) {
    set_limits({Bytes(1024 * MiB), Bytes(4 * KiB), Bytes(4 * MiB), 64});
  }
  struct Call {
    bool write;
    i64 size, offset;
    const Route* route;
  };
  void read(Bytes size, const Route& to, RouteMover&, Done done, const BlockIo& io) override {
    calls.push_back({false, size.count(), io.offset.count(), &to});
    later(latency_, done);
  }
  void write(Bytes size, const Route& from, RouteMover&, Done done, const BlockIo& io) override {
    calls.push_back({true, size.count(), io.offset.count(), &from});
    later(latency_, done);
  }
  void flush(Done done, SyncScope) override {
    ++flushes;
    later(flush_latency_, done);
  }
  BlockStorage* as_block_storage() override { return this; }
  std::vector<Call> calls;
  int flushes = 0;

private:
  // An event captures an index: the completion itself is too large for one.
  void later(Time t, Done done) {
    dones_.push_back(done);
    ctx().in(t, [this, i = dones_.size() - 1] {
      const Done d = dones_[i];  // a copy: the call may add to dones_
      d();
    });
  }
  Time latency_, flush_latency_;
  std::vector<Done> dones_;
};

// notify 5 us, request 3 us, interrupt 3 us (the defaults' round figures, set here so the
// bounds below do not move with them); the host store 50 us per I/O, 20 us per flush.
struct Vm {
  SimContext ctx{1};
  TimedStore store{ctx, us(50), us(20)};
  FakeRoutes routes;
  RouteMover mover{ctx};
  const Route given{{}, {"vda", "dram0"}};
  std::unique_ptr<VirtioBlk> disk;
  explicit Vm(Json extra = Json::object()) {
    Json p = {{"id", "vda"},          {"model", "virtio_blk"},       {"device", "host0"},
              {"notify_latency", "5 us"}, {"request_cost", "3 us"},  {"interrupt_latency", "3 us"},
              {"host_flush_cost", "10 us"}, {"host_copy_bandwidth", "4 GB/s"}};
    p.update(extra);
    disk = std::make_unique<VirtioBlk>(Params(p, {"t.json", "/devices/1"}), ctx);
    disk->find_devices([this](const std::string& id) -> Device* { return id == "host0" ? &store : nullptr; });
  }
  BlockIo at(i64 offset) {
    BlockIo io;
    io.offset = Bytes(offset);
    io.queues.stacked = &routes;
    io.segment = segment;
    io.footprint = footprint;
    return io;
  }
  Bytes segment{0};  // the buffer's contiguous run for the I/Os run() posts (0: one segment)
  Bytes footprint{0};  // the memory the issuer cycles its I/Os through (0: fresh)
  // Posts I/Os at time 0 and runs; returns each one's completion time.
  std::vector<Time> run(bool write, std::vector<i64> sizes) {
    std::vector<Time> done(sizes.size(), Time(-1));
    i64 offset = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      auto fn = [this, &done, i] { done[i] = ctx.now(); };
      if (write)
        disk->write(Bytes(sizes[i]), given, mover, fn, at(offset));
      else
        disk->read(Bytes(sizes[i]), given, mover, fn, at(offset));
      offset += sizes[i];
    }
    ctx.run();
    return done;
  }
  // A 4 KiB read posted at 0 and another at `second_at`; their completion times.
  std::pair<Time, Time> two_reads(Time second_at) {
    Time first(-1), second(-1);
    disk->read(Bytes(4 * KiB), given, mover, [this, &first] { first = ctx.now(); }, at(0));
    ctx.in(second_at, [this, &second] {
      disk->read(Bytes(4 * KiB), given, mover, [this, &second] { second = ctx.now(); }, at(4 * KiB));
    });
    ctx.run();
    return {first, second};
  }
  Time flush() {
    Time at_end(-1);
    disk->flush([this, &at_end] { at_end = ctx.now(); }, SyncScope::data);
    ctx.run();
    return at_end;
  }
  i64 stat(const std::string& name) {
    for (const StatEntry& e : ctx.stats().entries())
      if (e.path == "vda/" + name) return static_cast<i64>(static_cast<const Counter*>(e.stat)->value());
    FAIL("no stat vda/" << name);
    return -1;
  }
};
}  // namespace

TEST_CASE("virtio_blk sync: the device thread holds each request until its host call returns", "[storage][virtio]") {
  Vm vm;
  const std::vector<Time> done = vm.run(false, {4 * KiB, 4 * KiB});
  // First: the notification wakes the thread at 5, its request cost ends at 8, the host
  // call returns at 58, the interrupt lands at 61.
  CHECK(done[0] == us(61));
  // Second: the thread is free at 58 (sync), 3 us of request cost, 50 us on the host,
  // 3 us of interrupt: 114. One notification: the busy thread found it on the ring.
  CHECK(done[1] == us(114));
  CHECK(vm.stat("notifications") == 1);
  CHECK(vm.stat("requests") == 2);
}

TEST_CASE("virtio_blk async: host calls overlap, the thread only costs its request time", "[storage][virtio]") {
  Vm vm(Json{{"emulation", "async"}});
  const std::vector<Time> done = vm.run(false, {4 * KiB, 4 * KiB});
  // First as in sync (61); the second leaves the thread at 8 + 3 = 11, returns at 61 and
  // lands at 64: 50 us sooner than behind a blocking call.
  CHECK(done[0] == us(61));
  CHECK(done[1] == us(64));
}

TEST_CASE("virtio_blk async: no more host calls in flight than async_depth", "[storage][virtio]") {
  Vm vm(Json{{"emulation", "async"}, {"async_depth", 1}});
  const std::vector<Time> done = vm.run(false, {4 * KiB, 4 * KiB});
  // Depth 1 is sync's order: the second call goes out when the first returns (58 + 3).
  CHECK(done[1] == us(114));
}

TEST_CASE("virtio_blk splits an I/O at max_request, and cache none writes through", "[storage][virtio]") {
  Vm vm;
  const std::vector<Time> done = vm.run(true, {10 * MiB});
  REQUIRE(vm.store.calls.size() == 3);
  CHECK(vm.store.calls[0].size == 4 * MiB);
  CHECK(vm.store.calls[1].offset == 4 * MiB);
  CHECK(vm.store.calls[2].size == 2 * MiB);
  // Three requests in series on the sync thread, each 3 + 50 us after a 5 us wake-up:
  // 5 + 3 x 53 + 3 = 167 us.
  CHECK(done[0] == us(167));
  // A flush: woken 5, request 3, host fdatasync 10, the store's flush 20, interrupt 3.
  const Time start = vm.ctx.now();
  CHECK(vm.flush() - start == us(41));
  CHECK(vm.store.flushes == 1);
  CHECK(vm.stat("written_back") == 0);
}

TEST_CASE("virtio_blk: each data segment past a request's first costs the device thread segment_cost",
          "[storage][virtio]") {
  // A 1 MiB read into a buffer of 2 MiB pages is one segment: 5 wake + 3 request + 50 host
  // + 3 interrupt = 61 us, as before segments were counted.
  Vm huge(Json{{"segment_cost", "2 us"}});
  huge.segment = Bytes(2 * MiB);
  CHECK(huge.run(false, {1 * MiB})[0] == us(61));
  // The same read into scattered 4 KiB pages: 256 segments, 255 past the first at 2 us each
  // on the thread before its host call: 61 + 510 = 571 us, in one request (max_segments
  // raised to 256 to hold it; the split is the next test's).
  Vm small(Json{{"segment_cost", "2 us"}, {"max_segments", 256}});
  small.segment = Bytes(4 * KiB);
  CHECK(small.run(false, {1 * MiB})[0] == us(571));
  CHECK(small.stat("requests") == 1);
  // A write walks its segments the same way; a flush carries none.
  Vm write(Json{{"segment_cost", "2 us"}, {"max_segments", 256}});
  write.segment = Bytes(4 * KiB);
  CHECK(write.run(true, {1 * MiB})[0] == us(571));
  const Time start = write.ctx.now();
  CHECK(write.flush() - start == us(41));  // woken 5, request 3, fdatasync 10, flush 20, interrupt 3
}

TEST_CASE("virtio_blk copy_cache: a read into memory the host's cache does not hold costs its lines' fetch",
          "[storage][virtio]") {
  // copy_cache 4 MiB, cold lines fetched at 1 GB/s: a 1 MiB read costs 1,048,576 B / 1 GB/s =
  // 1048.576 us more on the device thread where all of it lands cold.
  const Json cache{{"copy_cache", "4 MiB"}, {"cold_copy_bandwidth", "1 GB/s"}};
  // Buffers within the cache (2 MiB, and 4 MiB exactly): as without it, 5 + 3 + 50 + 3 = 61 us.
  for (const i64 held : {2 * MiB, 4 * MiB}) {
    Vm vm(cache);
    vm.footprint = Bytes(held);
    CHECK(vm.run(false, {1 * MiB})[0] == us(61));
  }
  // 6 MiB of buffers: (6 - 4) / 4 = half lands cold: 61 + 524.288 = 585.288 us.
  Vm half(cache);
  half.footprint = Bytes(6 * MiB);
  CHECK(half.run(false, {1 * MiB})[0] == ns(585288));
  // Twice the cache and beyond, or fresh memory (a page-cache read: footprint 0): all of it,
  // 61 + 1048.576 = 1109.576 us.
  for (const i64 held : {8 * MiB, 64 * MiB, i64{0}}) {
    Vm vm(cache);
    vm.footprint = Bytes(held);
    CHECK(vm.run(false, {1 * MiB})[0] == ns(1109576));
  }
  // A write leaves guest memory as it is (the copy reads it): 61 us whatever its buffers.
  Vm write(cache);
  CHECK(write.run(true, {1 * MiB})[0] == us(61));
  // Without copy_cache (the default 0 B) a fresh read is as the backing store's rate says.
  Vm none;
  CHECK(none.run(false, {1 * MiB})[0] == us(61));
}

TEST_CASE("virtio_blk per_pass: the requests of one pass over the ring complete together", "[storage][virtio]") {
  // Two reads posted at once on the sync thread. per_request: 61 and 114 us (the first
  // test's). per_pass (Firecracker): the thread serves both in one pass (woken 5, 3 + 50,
  // 3 + 50), finds the ring empty at 111 and interrupts once: both at 114 us, the first
  // 53 us later than per request.
  Vm vm(Json{{"signal", "per_pass"}});
  const std::vector<Time> done = vm.run(false, {4 * KiB, 4 * KiB});
  CHECK(done[0] == us(114));
  CHECK(done[1] == us(114));
  // A read posted while the thread serves the pass joins it: posted at 30 us (the first
  // request's host call under way until 58), served 58-111, signalled with the first at 114.
  // (No notification: the busy thread finds it on the ring.)
  Vm late(Json{{"signal", "per_pass"}});
  const auto [first, second] = late.two_reads(us(30));
  CHECK(first == us(114));
  CHECK(second == us(114));
  // A read posted after the pass ended starts a pass of its own: woken again (5 us).
  Vm apart(Json{{"signal", "per_pass"}});
  const auto [a, b] = apart.two_reads(us(100));
  CHECK(a == us(61));
  CHECK(b == us(161));  // 100 + 5 + 3 + 50 + 3
  CHECK(apart.stat("notifications") == 2);
}

TEST_CASE("virtio_blk: the guest splits a request at max_segments segments", "[storage][virtio]") {
  // 1 MiB of scattered 4 KiB pages with seg_max 128: two requests of 512 KiB, each 128
  // segments (127 past the first at 2 us): in series on the sync thread,
  // 5 + 2 x (3 + 254 + 50) + 3 = 622 us.
  Vm vm(Json{{"segment_cost", "2 us"}, {"max_segments", 128}});
  vm.segment = Bytes(4 * KiB);
  CHECK(vm.run(false, {1 * MiB})[0] == us(622));
  REQUIRE(vm.store.calls.size() == 2);
  CHECK(vm.store.calls[0].size == 512 * KiB);
  CHECK(vm.store.calls[1].offset == 512 * KiB);
  // Runs of 2 MiB never reach the limit before max_request: 10 MiB is 4 + 4 + 2 MiB, as
  // without segments.
  Vm big(Json{{"segment_cost", "2 us"}, {"max_segments", 128}});
  big.segment = Bytes(2 * MiB);
  big.run(true, {10 * MiB});
  CHECK(big.store.calls.size() == 3);
}

TEST_CASE("virtio_blk writeback: writes stay in the host's memory until the guest flushes", "[storage][virtio]") {
  Vm vm(Json{{"host_cache", "writeback"}});
  const std::vector<Time> done = vm.run(true, {1 * MiB});
  // The thread copies 1 MiB at 4 GB/s (262.144 us) beside its 3 us: 5 + 3 + 262.144 + 3.
  CHECK(done[0] == ns(273144));
  CHECK(vm.store.calls.empty());
  const Time start = vm.ctx.now();
  const Time end = vm.flush();
  // The flush writes the dirty MiB back from host memory (one 4 MiB-limited request,
  // 50 us), then the fdatasync's 10 us and the store's 20 us flush: 5 + 3 + 50 + 10 + 20 + 3.
  CHECK(end - start == us(91));
  REQUIRE(vm.store.calls.size() == 1);
  CHECK(vm.store.calls[0].write);
  CHECK(vm.store.calls[0].size == 1 * MiB);
  CHECK(vm.store.calls[0].route->devices.front() == "dram0");
  CHECK(vm.store.flushes == 1);
  CHECK(vm.stat("written_back") == MiB);
  // Nothing dirty is left: a second flush writes nothing back.
  vm.flush();
  CHECK(vm.store.calls.size() == 1);
}

TEST_CASE("virtio_blk unsafe: a flush is acknowledged and nothing is written back", "[storage][virtio]") {
  Vm vm(Json{{"host_cache", "unsafe"}});
  vm.run(true, {1 * MiB});
  const Time start = vm.ctx.now();
  // Woken 5, request 3, interrupt 3: no host call.
  CHECK(vm.flush() - start == us(11));
  CHECK(vm.store.calls.empty());
  CHECK(vm.store.flushes == 0);
}

TEST_CASE("virtio_blk refuses a request size that is not a multiple of the store's block", "[storage][virtio]") {
  SimContext ctx{1};
  TimedStore store{ctx, us(1), us(1)};
  VirtioBlk disk(Params(Json{{"id", "vda"}, {"model", "virtio_blk"}, {"device", "host0"}, {"max_request", "6 KiB"}},
                        {"t.json", "/devices/1"}),
                 ctx);
  CHECK_THROWS_WITH(disk.find_devices([&store](const std::string&) -> Device* { return &store; }),
                    Catch::Contains("/devices/1/max_request") && Catch::Contains("logical block"));
}

TEST_CASE("'limited by' names a virtual disk's device thread when it binds", "[storage][virtio]") {
  // topologies/vm-virtio-host.json: 4 KiB reads at QD32 through a sync device thread. The
  // thread holds each request for its 3 us and the drive's read (~60 us): it is busy all the
  // time at 1 / 63 us, about 16k IOPS, while the drive, able to do 2.45M, idles.
  const Json doc = {{"name", "t"},
                    {"topology", "topologies/vm-virtio-host.json"},
                    {"workload",
                     {{"kind", "random_read"}, {"size", "32 MiB"}, {"io_size", "4 KiB"}, {"threads", 1}, {"qd", 32},
                      {"targets", "dram0"}, {"storage", "vda_sync"}}},
                    {"paths", {"cpu_only"}}};
  const Json r = to_json(run_scenario(scenario_from_json(doc, "t.json", IOWALL_SOURCE_DIR)));
  const Json& m = r["metrics"]["cpu_only"];
  CHECK(m["limited_by"]["resource"] == "vda_sync/device_thread");
  CHECK(m["limited_by"]["utilization"].get<double>() > 0.99);
  CHECK(m["iops"].get<double>() < 20000);
}

TEST_CASE("virtio_blk writeback: a read of bytes the host holds dirty is a copy out of its memory",
          "[storage][virtio]") {
  Vm vm(Json{{"host_cache", "writeback"}});
  vm.run(true, {1 * MiB});
  const Time start = vm.ctx.now();
  Time done(-1);
  vm.disk->read(Bytes(64 * KiB), vm.given, vm.mover, [&] { done = vm.ctx.now(); }, vm.at(256 * KiB));
  vm.ctx.run();
  // Woken 5, request 3 + 64 KiB at 4 GB/s (16.384 us), interrupt 3: no store read.
  CHECK(done - start == ns(27384));
  CHECK(vm.store.calls.empty());
  CHECK(vm.stat("host_cache_reads") == 1);
  // Past the dirty MiB the read goes to the store (50 us there).
  vm.disk->read(Bytes(64 * KiB), vm.given, vm.mover, [] {}, vm.at(2 * MiB));
  vm.ctx.run();
  REQUIRE(vm.store.calls.size() == 1);
  CHECK_FALSE(vm.store.calls[0].write);
}
