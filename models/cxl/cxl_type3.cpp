#include "models/cxl/cxl_type3.hpp"

#include <fmt/format.h>

#include "models/cxl/cxl_flit.hpp"
#include "sim/config/registry.hpp"

namespace iowall {

CxlType3::CxlType3(const Params& p, SimContext& ctx) : Device(p, ctx) {
  if (!media_bandwidth.is_positive() && !p.describing()) p.fail("media_bandwidth", "must be positive");
  media_ = std::make_unique<Server>(*this, "media");
  media_->set_carries("line access");
  register_stat("accesses", "lines", "64 B accesses served", accesses_);
  register_stat("waited_for_slot", "requests", "requests that found every request slot taken", waited_);
  register_stat("occupancy", "requests", "request slots in use", occupancy_, max_requests);
}

void CxlType3::acquire(Done granted) {
  if (in_use_ < max_requests && waiting_.empty()) {
    occupancy_.set(now(), ++in_use_);
    granted();
    return;
  }
  waited_.add();
  waiting_.push_back(granted);
}

void CxlType3::release() {
  if (!waiting_.empty()) {  // the slot passes straight to the first waiter
    const Done next = waiting_.front();
    waiting_.pop_front();
    next();
    return;
  }
  occupancy_.set(now(), --in_use_);
}

void CxlType3::access(Done done) {
  accesses_.add();
  const std::uint32_t id = jobs_.acquire(done);
  ctx().in(controller_latency, [this, id] {
    media_->submit(transfer_time(cxl::kLine, media_bandwidth), Time(0), {}, [this, id] {
      ctx().in(media_latency + controller_latency, [this, id] {
        const Done finished = jobs_[id];
        jobs_.release(id);
        release();
        finished();
      });
    });
  });
}

std::string CxlType3::pending_work() const {
  if (in_use_ == 0 && waiting_.empty()) return {};
  return fmt::format("{} requests in the device, {} waiting for a slot", in_use_, waiting_.size());
}

IOWALL_REGISTER_DEVICE(CxlType3, "cxl_type3", "CXL.mem Type-3 memory expander: request slots, controller, media");
IOWALL_PRESET("device", "cxl_type3", "cz120", "Micron CZ120 CXL memory module (Gen5 x8, DDR5)",
              "Micron product brief: 36 GB/s (figures.md)", R"({"media_bandwidth": "36 GB/s", "capacity": "256 GiB"})");
IOWALL_PRESET("device", "cxl_type3", "cmm_d", "Samsung CMM-D CXL memory module (Gen5 x8, DDR5)",
              "Samsung product brief: 36 GB/s (figures.md)", R"({"media_bandwidth": "36 GB/s", "capacity": "128 GiB"})");

}  // namespace iowall
