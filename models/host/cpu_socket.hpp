// A CPU socket: cores that software costs are spent on (system calls, interrupts,
// cuFile's control plane, memcpy). Cores busy over time is the "CPU tax" output.
#pragma once
#include <string>
#include <vector>
#include <memory>

#include "sim/core/device.hpp"
#include "sim/core/server.hpp"

namespace iowall {

// A core idle long enough enters a deeper C-state and takes longer to wake: the cpuidle
// menu governor picks, when a core goes idle, the deepest state whose target residency is
// at most the idle time it predicts (from recent idle periods) and whose exit latency is at
// most that prediction divided by its performance multiplier, 1 + iowait_factor x the tasks
// waiting on I/O on that CPU (a thread blocked on its own I/O is one); the wake-up then
// costs the chosen state's exit latency.
struct IdleState {
  std::string name;
  Time exit_latency, target_residency;
};

class CpuSocket final : public Device {
public:
  CpuSocket(const Params& p, SimContext& ctx);
  // The state the governor enters for a predicted idle time with `iowaiters` tasks waiting
  // on I/O on the CPU (none: the core polls).
  const IdleState* idle_state(Time predicted, int iowaiters) const;
  Server& core_server() { return *cores_; }
  // Runs `cost` of CPU time on the first free core, then `done`.
  void spend(Time cost, InlineFunction<void()> done);

  IOWALL_PARAM_INT(cores, 56, 1, 1024, "physical cores available to I/O and copies", "CPU datasheet");
  IOWALL_PARAM(Frequency, frequency, "2.0 GHz", "sustained core clock (for cycles per byte)", "CPU datasheet");
  IOWALL_PARAM(Bandwidth, memcpy_per_core, "10 GB/s", "single-thread memcpy bandwidth",
               "figures.md: ~6 GB/s Haswell/Skylake servers; newer cores 10-12 GB/s");
  // A serializer's checksum pass (torch.save's zip records) runs on one core of the socket
  // whose memory holds the bytes: the checkpoint workloads' crc32 pass takes this rate
  // unless the workload gives its own crc32_bandwidth.
  IOWALL_PARAM(Bandwidth, crc32_per_core, "3.98 GB/s", "one core's CRC-32 pass as torch.save computes it",
               "torch.save of 1 GiB to /dev/shm on the H200 machine: 0.62 s with compute_crc32, 0.35 s without: "
               "0.27 s/GiB (measure/README.md); iowall's own table-driven pass ran at 2.12 GB/s "
               "(copies/cpu_pass-crc32-r*.json); a machine's own from scripts/checkpoint-frameworks.py --crc-probe");
  IOWALL_PARAM(std::string, idle_states, "",
               "the core's C-states, shallow to deep, as NAME EXIT RESIDENCY, comma-separated (e.g. "
               "\"C1 2us 2us, C1E 10us 20us, C6 133us 600us\"); empty: the core never sleeps",
               "Linux drivers/idle/intel_idle.c state tables (per CPU model)");
  IOWALL_PARAM_INT(idle_iowait_factor, 10, 0, 1000,
                   "the idle governor's exit-latency limit is the predicted idle over 1 + this x the tasks in "
                   "iowait on the CPU; 0: I/O waiters do not matter",
                   "Linux drivers/cpuidle/governors/menu.c performance_multiplier(): 1 + 10 * nr_iowaiters (the "
                   "kernels of the corpus's systems; removed in 2024 by 'cpuidle: menu: Remove iowait influence', "
                   "where 0 applies)");
  // First touch of new anonymous memory (models/host/host_memory.hpp): a fault per page,
  // and the kernel zeroes the page before mapping it.
  IOWALL_PARAM(Time, page_fault_cost, "1.27 us", "one anonymous page fault beyond zeroing the page (entry, page "
               "allocation, mapping, return)",
               "derived from d2h into fresh pageable memory on an H200 VM with 4 KiB pages (1.85 GB/s, 524,288 faults "
               "per 2 GiB) and with transparent huge pages (4.31 GB/s, 1,024 faults), less the staged copy (17.29 "
               "GB/s): 1.98 us per 4 KiB fault and 365 us per 2 MiB fault fit this cost plus zeroing "
               "(reports/calibration/gpu-machine/checkpoint-h200/copies/d2h-pageable_fresh-*-256M-r*.json)");
  IOWALL_PARAM(Bandwidth, page_zero_bandwidth, "5.77 GB/s", "the kernel's zeroing of a newly faulted page",
               "derived with page_fault_cost from the same two measurements");
  // A file mapped privately whose pages are cached (a mapped checkpoint's copy out of
  // it): each first touch faults, and the kernel maps the fault_around bytes around it
  // (mm/memory.c do_fault_around, filemap_map_pages) without zeroing anything.
  IOWALL_PARAM(Time, mapped_fault_cost, "5.36 us", "one fault on a file mapping whose pages are cached, mapping "
               "fault_around bytes of them",
               "copy to the GPU out of a cached 8 GiB safetensors mapping (2.075 s, 130,979 minor faults) less the same "
               "copy out of touched pageable memory (1.373 s), medians of 3 rounds on an H200 VM "
               "(scripts/probe-mapped-load.py, reports/calibration/gpu-machine/twelfth-h200-vm/mappedload)");
  IOWALL_PARAM(Bytes, fault_around, "64 KiB", "bytes of cached pages one fault on a file mapping maps",
               "Linux mm/memory.c fault_around_bytes (default 64 KiB); the probe above: 8 GiB over 130,979 faults");
  IOWALL_PORT(fabric, "on-die fabric to the root complex", PortRole::any);

private:
  std::vector<IdleState> states_;
  std::unique_ptr<Server> cores_;
};

// One core's idle periods as the menu governor sees them: when the core goes idle it
// enters the state its socket's idle_state() picks for the idle time it predicts (a
// running mean of its last idle periods, 3:1 old to new), and work that arrives (an
// interrupt, a wake-up) waits for that state's exit latency.
class IdleCore {
public:
  // The core runs out of work at `now`.
  void sleep(Time now) { idle_since_ = now; }
  // Work arrives at `now` with `iowaiters` tasks sleeping on I/O on the core: the exit
  // latency of the state it entered (zero when it has not been idle since it last woke,
  // or the socket has no idle states). The core is awake afterwards.
  Time wake(const CpuSocket& cpu, Time now, int iowaiters);

private:
  Time idle_since_{}, predicted_{};
};

}  // namespace iowall
