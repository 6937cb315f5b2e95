// cpu_only: O_DIRECT into host memory, the storage ceiling. The CPU pays the host I/O
// stack's costs (io_stack: psync, libaio, io_uring, io_uring_poll, spdk) on submission
// and on completion; polled stacks take no interrupt.
#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "models/host/io_stack.hpp"
#include "sim/config/registry.hpp"
#include "models/paths/path_base.hpp"

namespace iowall {

class CpuOnlyPath final : public PathBase {
public:
  using Config = HostIoStack;
  CpuOnlyPath(const Params& p, PathEnv& env) : PathBase(env), stack_(p) {
    stack_polls_ = stack_.polled;
    set_buffer_segment(stack_.buffer_segment);
  }

  void submit(const IoRequest& r, Done done) override {
    Dram& dram = dram_near(r.storage->device());
    CpuSocket* cpu = &cpu_near(dram);
    const Route* route = r.write ? &env_.route(dram, r.storage->device()) : &env_.route(r.storage->device(), dram);
    const std::uint32_t id = begin({r, done, cpu, route, nullptr});
    // O_DIRECT pins the user pages at submission: new memory faults in first.
    thread_spend(id, stack_.submit_cost + r.user_pages_cost, [this, id] {
      storage_step(id, *io(id).first,
                   [this, id] { thread_spend(id, stack_.complete_cost, [this, id] { finish(id); }); });
    });
  }

private:
  HostIoStack stack_;
};

IOWALL_REGISTER_PATH(CpuOnlyPath, "cpu_only", "O_DIRECT between storage and host memory (the storage ceiling)");

}  // namespace iowall
