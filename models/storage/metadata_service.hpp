// A parallel file system's metadata server as a served resource: each open (a lookup
// of the file's layout) holds one of `threads` service threads for `open_cost`; opens
// beyond that wait in FIFO order. Its busy threads are a statistic like any other
// resource's, so a metadata-bound run names it as its limiter.
#pragma once
#include <string>

#include "sim/core/component.hpp"
#include "sim/core/server.hpp"

namespace iowall::storage {

class MetadataService final : public Component {
public:
  MetadataService(SimContext& ctx, std::string name, int threads, Time open_cost)
      : Component(ctx, std::move(name)), service_(*this, "service", threads), open_cost_(open_cost) {
    service_.set_carries("open");
  }

  // Serves one open; `done` when its service thread is free again.
  void open(InlineFunction<void()> done) { service_.submit(open_cost_, now(), {}, done); }
  std::uint64_t opens() const { return service_.jobs(); }

private:
  Server service_;
  Time open_cost_;
};

}  // namespace iowall::storage
