#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <liburing.h>

#include "measure/engine.hpp"
#include "sim/core/error.hpp"

namespace iowall::measure {
namespace {

class UringEngine final : public HostEngine {
public:
  UringEngine(int fd, int depth) : fd_(fd), requests_(static_cast<std::size_t>(depth) * 2) {
    const int rc = io_uring_queue_init(static_cast<unsigned>(depth), &ring_, 0);
    if (rc < 0) throw RunError(fmt::format("io_uring_queue_init({}) failed: {}", depth, std::strerror(-rc)));
  }
  ~UringEngine() override { io_uring_queue_exit(&ring_); }

  void submit(const IoRequest& r) override {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (!sqe) {  // queue full: hand what is queued to the kernel and try again
      flush();
      sqe = io_uring_get_sqe(&ring_);
      if (!sqe) throw RunError("io_uring submission queue is full");
    }
    if (static_cast<std::size_t>(r.slot) >= requests_.size()) requests_.resize(r.slot + 1);
    requests_[r.slot] = r;
    if (r.write)
      io_uring_prep_write(sqe, fd_, r.buffer, static_cast<unsigned>(r.length), static_cast<__u64>(r.offset));
    else
      io_uring_prep_read(sqe, fd_, r.buffer, static_cast<unsigned>(r.length), static_cast<__u64>(r.offset));
    io_uring_sqe_set_data64(sqe, static_cast<__u64>(r.slot));
  }

  void flush() override {
    for (;;) {
      const int rc = io_uring_submit(&ring_);
      if (rc >= 0) return;
      if (rc == -EINTR || rc == -EAGAIN) continue;
      throw RunError(fmt::format("io_uring_submit failed: {}", std::strerror(-rc)));
    }
  }

  int wait(IoCompletion* out, int max) override {
    io_uring_cqe* cqe = nullptr;
    const int rc = io_uring_wait_cqe(&ring_, &cqe);
    if (rc == -EINTR) return 0;
    if (rc < 0) throw RunError(fmt::format("io_uring_wait_cqe failed: {}", std::strerror(-rc)));
    int n = 0;
    while (n < max && io_uring_peek_cqe(&ring_, &cqe) == 0 && cqe) {
      const int slot = static_cast<int>(io_uring_cqe_get_data64(cqe));
      std::int64_t res = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
      const IoRequest& r = requests_[slot];
      // A short transfer (a signal, the end of a device's queue limits) is finished
      // synchronously; rare, and it keeps every operation whole.
      if (res >= 0 && static_cast<std::size_t>(res) < r.length && res > 0) {
        const std::int64_t more = full_pio(fd_, r.write, r.buffer + res, r.length - res, r.offset + res);
        res = more < 0 ? more : res + more;
      }
      out[n++] = {slot, res};
    }
    return n;
  }

private:
  int fd_;
  io_uring ring_{};
  std::vector<IoRequest> requests_;
};

}  // namespace

std::unique_ptr<HostEngine> make_io_uring_engine(int fd, int depth) {
  return std::make_unique<UringEngine>(fd, depth);
}

}  // namespace iowall::measure
