// Host I/O engines: how a worker's reads and writes reach the kernel. psync issues one
// pread/pwrite at a time; io_uring keeps up to the queue depth in flight.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "measure/options.hpp"

namespace iowall::measure {

struct IoRequest {
  int slot = 0;  // the buffer it uses; returned with the completion
  bool write = false;
  std::int64_t offset = 0;
  std::size_t length = 0;
  char* buffer = nullptr;
};

struct IoCompletion {
  int slot = 0;
  std::int64_t result = 0;  // bytes moved, or -errno
};

class HostEngine {
public:
  virtual ~HostEngine() = default;
  // Queues a request; the engine owns it until it is returned by wait().
  virtual void submit(const IoRequest& r) = 0;
  // Hands queued requests to the kernel.
  virtual void flush() = 0;
  // Returns 1..max completions, blocking until at least one is there. Returns 0 when
  // interrupted by a signal (the caller checks stop_requested()).
  virtual int wait(IoCompletion* out, int max) = 0;
};

// psync: the I/O happens in submit(); short transfers are continued until complete.
std::unique_ptr<HostEngine> make_psync_engine(int fd);
// io_uring with `depth` entries. Throws RunError if the ring cannot be created.
std::unique_ptr<HostEngine> make_io_uring_engine(int fd, int depth);

// Reads or writes `length` bytes at `offset`, continuing short transfers. Returns the
// bytes moved (less only at end of file) or -errno.
std::int64_t full_pio(int fd, bool write, char* buf, std::size_t length, std::int64_t offset);

}  // namespace iowall::measure
