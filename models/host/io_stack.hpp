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

#include "sim/core/params.hpp"

namespace iowall {

struct HostIoStack {
  std::string name;
  Time submit, complete;
  bool polled = false;
};

inline HostIoStack read_host_io_stack(const Params& p) {
  HostIoStack s;
  s.name = p.get_choice("io_stack", "psync", {"psync", "libaio", "io_uring", "io_uring_poll", "spdk"},
                        "host I/O stack: sets the per-I/O CPU costs and interrupt or polled completion",
                        "figures.md: io_uring polled 10 M IOPS per core (Axboe 2021); SPDK 10.39 M IOPS per thread");
  // Per-I/O CPU time (submit, complete), by stack.
  const char* submit = "2 us";
  const char* complete = "2 us";
  if (s.name == "libaio") submit = "1 us", complete = "1 us";            // assumption: half of psync
  if (s.name == "io_uring") submit = "500 ns", complete = "500 ns";     // assumption: no per-I/O syscall
  if (s.name == "io_uring_poll") submit = "50 ns", complete = "50 ns";  // 10 M IOPS per core
  if (s.name == "spdk") submit = "48 ns", complete = "48 ns";           // 10.39 M IOPS per thread
  s.submit = p.get_time("submit_cost", submit, "CPU time to submit one O_DIRECT I/O (default by io_stack)",
                        "psync: order of magnitude of syscall + block layer; polled stacks: figures.md");
  s.complete = p.get_time("complete_cost", complete, "CPU time to complete one I/O (default by io_stack)",
                          "psync: MSI-X + wake-up; polled stacks: reaping in the submitting thread (figures.md)");
  s.polled = s.name == "io_uring_poll" || s.name == "spdk";
  return s;
}

}  // namespace iowall
