#include <cerrno>
#include <deque>
#include <unistd.h>

#include "measure/engine.hpp"

namespace iowall::measure {

std::int64_t full_pio(int fd, bool write, char* buf, std::size_t length, std::int64_t offset) {
  std::size_t done = 0;
  while (done < length) {
    const ssize_t n = write ? ::pwrite(fd, buf + done, length - done, offset + static_cast<std::int64_t>(done))
                            : ::pread(fd, buf + done, length - done, offset + static_cast<std::int64_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    if (n == 0) break;  // end of file
    done += static_cast<std::size_t>(n);
  }
  return static_cast<std::int64_t>(done);
}

namespace {

class PsyncEngine final : public HostEngine {
public:
  explicit PsyncEngine(int fd) : fd_(fd) {}
  void submit(const IoRequest& r) override {
    done_.push_back({r.slot, full_pio(fd_, r.write, r.buffer, r.length, r.offset)});
  }
  void flush() override {}
  int wait(IoCompletion* out, int max) override {
    int n = 0;
    while (n < max && !done_.empty()) {
      out[n++] = done_.front();
      done_.pop_front();
    }
    return n;
  }

private:
  int fd_;
  std::deque<IoCompletion> done_;
};

}  // namespace

std::unique_ptr<HostEngine> make_psync_engine(int fd) { return std::make_unique<PsyncEngine>(fd); }

}  // namespace iowall::measure
