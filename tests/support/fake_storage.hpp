// Mock block storage for tests of stacked stores (md RAID0, file systems): a member that
// records what it is sent and completes when the test says so, and a caller's routes.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/core/block_storage.hpp"
#include "sim/core/device.hpp"

namespace iowall::testing {

// A member with mocks on its side: it records what the array sends it and completes
// when the test says so.
class FakeStore final : public Device, public BlockStorage {
public:
  FakeStore(SimContext& ctx, const std::string& id)
      : Device(Params(Json{{"id", id}, {"model", "fake"}}, {"f.json", "/" + id}), ctx),
        BlockStorage(static_cast<Device&>(*this)) {
    set_limits({Bytes(1024 * (1024 * 1024)), Bytes(4 * 1024), Bytes(128 * 1024), 64});
  }
  struct Call {
    bool write;
    i64 size, offset;
    const Route* route;
  };
  void read(Bytes size, const Route& to, RouteMover&, Done done, const BlockIo& io) override {
    calls.push_back({false, size.n, io.offset.n, &to});
    pending.push_back(done);
  }
  void write(Bytes size, const Route& from, RouteMover&, Done done, const BlockIo& io) override {
    calls.push_back({true, size.n, io.offset.n, &from});
    pending.push_back(done);
  }
  void flush(Done done, SyncScope scope) override {
    ++flushes;
    scopes.push_back(scope);
    pending.push_back(done);
  }
  BlockStorage* as_block_storage() override { return this; }
  void complete() {
    const std::vector<Done> now = std::move(pending);
    pending.clear();
    for (const Done& d : now) d();
  }
  std::vector<Call> calls;
  std::vector<Done> pending;
  int flushes = 0;
  std::vector<SyncScope> scopes;
};
// The caller's side: a route of its own per member.
class FakeRoutes final : public StackedRoutes {
public:
  const Route& member_route(const Device& member, const Route& given, bool write) override {
    Route& r = routes[&member];
    r.devices = {member.name(), write ? given.devices.front() : given.devices.back()};
    return r;
  }
  QueueRoutes member_queues(Device&, const QueueRoutes& given) override { return given; }
  const Route& memory_route(const Device& member, bool write) override {
    Route& r = memory[&member];
    r.devices = write ? std::vector<std::string>{"dram0", member.name()} : std::vector<std::string>{member.name(), "dram0"};
    return r;
  }
  std::map<const Device*, Route> routes, memory;
};

}  // namespace iowall::testing
