// The host's I/O stack for O_DIRECT paths: the CPU time one I/O costs to submit and to
// complete, and whether completions come by interrupt or by polling the CQ.
//   psync          one pread/pwrite per I/O: syscall, block layer, driver; an interrupt and
//                  a wake-up per completion.
//   libaio         io_submit/io_getevents: the syscall amortized over a batch, interrupts.
//   io_uring       SQ/CQ rings shared with the kernel, interrupts.
//   io_uring_poll  IOPOLL on polled NVMe queues: no interrupt; the submitting thread reaps.
//   spdk           a user-space driver polling its own queue pairs.
// Polled stacks spin a core whether or not I/O completes; that spinning is not counted
// in the CPU cores busy (only the per-I/O work is).
#pragma once
#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace iowall {

namespace io_stack_detail {
// Per-I/O CPU time (submit, complete) by stack: the defaults of submit_cost and complete_cost.
inline const char* default_cost(const std::string& stack) {
  if (stack == "libaio") return "820 ns";        // 608 K IOPS per core, submit and complete halves
  if (stack == "io_uring") return "500 ns";      // assumption: no per-I/O syscall
  if (stack == "io_uring_poll") return "50 ns";  // 10 M IOPS per core
  if (stack == "spdk") return "48 ns";           // 10.39 M IOPS per thread
  return "2 us";                                 // psync
}
}  // namespace io_stack_detail

// A path's host I/O stack parameters (a path's Config derives from it).
struct HostIoStack : ParamSet {
  explicit HostIoStack(const Params& p) : ParamSet(p) {}
  IOWALL_PARAM_CHOICE(io_stack, "psync", (std::vector<std::string>{"psync", "libaio", "io_uring", "io_uring_poll", "spdk"}),
                      "host I/O stack: sets the per-I/O CPU costs and interrupt or polled completion",
                      "figures.md: io_uring polled 10 M IOPS per core (Axboe 2021); SPDK 10.39 M IOPS per thread; "
                      "libaio 608 K 4 KiB random-read IOPS per core at QD 128, not polled, several devices (J. Axboe, "
                      "'Efficient IO with io_uring', 2019, its performance table): 1.64 us of CPU per I/O, split "
                      "evenly between submit and complete");
  IOWALL_PARAM(Time, submit_cost, io_stack_detail::default_cost(io_stack),
               "CPU time to submit one O_DIRECT I/O (default by io_stack)",
               "psync: order of magnitude of syscall + block layer; polled stacks: figures.md");
  IOWALL_PARAM(Time, complete_cost, io_stack_detail::default_cost(io_stack),
               "CPU time to complete one I/O (default by io_stack)",
               "psync: MSI-X + wake-up; polled stacks: reaping in the submitting thread (figures.md)");
  IOWALL_PARAM(Bytes, buffer_segment, "2 MiB",
               "the host buffer's physically contiguous run, one DMA segment of a request each: 2 MiB for a "
               "buffer on transparent huge pages (iowall measure's), 4 KiB for 4 KiB pages no two of which "
               "neighbour (a long-running machine's malloc'd buffer); a virtual disk pays per segment",
               "Linux: a bio's bvecs merge into one segment where physically contiguous (blk_rq_map_sg); "
               "`iowall measure --buffer-pages small` reports a buffer's contiguous_runs (227-256 per MiB "
               "measured, reports/calibration/cpu-machine/buffer-pages)");
  // The stack reaps by polling: it asks the drive's host driver for polled queues.
  bool polled = io_stack == "io_uring_poll" || io_stack == "spdk";
};

}  // namespace iowall
