#include "models/ssd/flash_media.hpp"

#include <fmt/format.h>

namespace iowall {

FlashMedia::FlashMedia(Component& owner, const FlashGeometry& g) : owner_(owner), g_(g) {
  for (int c = 0; c < g.channels; ++c) {
    channels_.push_back(std::make_unique<Server>(owner, fmt::format("channel{}", c)));
    // Planes of a die sense or program pages in parallel (multi-plane operations).
    for (int d = 0; d < g.dies_per_channel; ++d)
      dies_.push_back(std::make_unique<Server>(owner, fmt::format("ch{}die{}", c, d), g.planes));
  }
}

template <typename F>
int FlashMedia::for_each_page(Bytes offset, Bytes bytes, F&& page_fn) {
  const i64 first = offset.n / g_.page.n, last = (offset.n + bytes.n - 1) / g_.page.n;
  const i64 n = static_cast<i64>(dies_.size());
  for (i64 p = first; p <= last; ++p) {
    const i64 lo = std::max(offset.n, p * g_.page.n), hi = std::min(offset.n + bytes.n, (p + 1) * g_.page.n);
    // Consecutive logical pages land on consecutive dies, channel-first, as FTLs stripe
    // them for parallelism: die index i sits on channel i % channels.
    const i64 slot = p % n;
    const int die = static_cast<int>((slot % g_.channels) * g_.dies_per_channel + slot / g_.channels);
    page_fn(die, Bytes(hi - lo));
  }
  return static_cast<int>(last - first + 1);
}

Time FlashMedia::sensing_time() {
  Rng& rng = owner_.rng();
  Time t(static_cast<i64>(static_cast<double>(g_.read_time.ps) * rng.lognormal_factor(g_.read_sigma)));
  // Read retry: the ECC failed, the die senses again with shifted reference voltages.
  while (g_.read_retry_probability > 0 && rng.uniform() < g_.read_retry_probability) t += g_.read_time;
  return t;
}

void FlashMedia::page_done(std::uint32_t op) {
  if (--ops_[op].pages_left > 0) return;
  const Done done = ops_[op].done;
  ops_.release(op);
  done();
}

void FlashMedia::read(Bytes offset, Bytes bytes, Done done) {
  const std::uint32_t op = ops_.acquire({0, done});
  ops_[op].pages_left = for_each_page(offset, bytes, [this, op](int die, Bytes page_bytes) {
    const std::uint32_t ch = static_cast<std::uint32_t>(die / g_.dies_per_channel);
    const Time transfer = transfer_time(page_bytes, g_.channel_bandwidth);
    dies_[die]->submit(sensing_time(), Time(0), {}, [this, op, ch, transfer] {
      channels_[ch]->submit(transfer, Time(0), {}, [this, op] { page_done(op); });
    });
  });
}

void FlashMedia::program(Bytes offset, Bytes bytes, Done done) {
  const std::uint32_t op = ops_.acquire({0, done});
  ops_[op].pages_left = for_each_page(offset, bytes, [this, op](int die, Bytes page_bytes) {
    const std::uint32_t ch = static_cast<std::uint32_t>(die / g_.dies_per_channel);
    const auto d = static_cast<std::uint32_t>(die);
    channels_[ch]->submit(transfer_time(page_bytes, g_.channel_bandwidth), Time(0), {}, [this, op, d] {
      dies_[d]->submit(g_.program_time, Time(0), {}, [this, op] { page_done(op); });
    });
  });
}

}  // namespace iowall
