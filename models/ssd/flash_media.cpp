#include "models/ssd/flash_media.hpp"

#include <fmt/format.h>

namespace iowall {

FlashMedia::FlashMedia(Component& owner, const FlashGeometry& g)
    : owner_(owner), g_(g), full_page_transfer_(transfer_time(g.page, g.channel_bandwidth)) {
  for (int c = 0; c < g.channels; ++c) {
    channels_.emplace_back(owner, fmt::format("channel{}", c));
    // Planes of a die sense or program pages in parallel (multi-plane operations).
    for (int d = 0; d < g.dies_per_channel; ++d)
      dies_.emplace_back(owner, fmt::format("ch{}die{}", c, d), g.planes);
  }
}

template <typename F>
void FlashMedia::for_each_page(Bytes offset, Bytes bytes, F&& page_fn) {
  const i64 first = offset / g_.page, last = (offset + bytes - Bytes(1)) / g_.page;
  const i64 n = static_cast<i64>(dies_.size());
  for (i64 p = first; p <= last; ++p) {
    const Bytes lo = std::max(offset, g_.page * p), hi = std::min(offset + bytes, g_.page * (p + 1));
    // Consecutive logical pages land on consecutive dies, channel-first, as FTLs stripe
    // them for parallelism: die index i sits on channel i % channels.
    const i64 slot = p % n;
    const int die = static_cast<int>((slot % g_.channels) * g_.dies_per_channel + slot / g_.channels);
    page_fn(die, hi - lo);
  }
}

Time FlashMedia::sensing_time() {
  Rng& rng = owner_.rng();
  Time t = scale(g_.read_time, rng.lognormal_factor(g_.read_sigma));
  // Read retry: the ECC failed, the die senses again with shifted reference voltages.
  while (g_.read_retry_probability > 0 && rng.uniform() < g_.read_retry_probability) t += g_.read_time;
  return t;
}

Timeline& FlashMedia::channel_of(int die) { return channels_[static_cast<std::size_t>(die / g_.dies_per_channel)]; }

Time FlashMedia::channel_time(Bytes page_bytes) const {
  return page_bytes == g_.page ? full_page_transfer_ : transfer_time(page_bytes, g_.channel_bandwidth);
}

void FlashMedia::finish_at(Time end, Done done) {
  const std::uint32_t op = ops_.acquire(done);
  owner_.ctx().at(end, [this, op] {
    const Done d = ops_[op];
    ops_.release(op);
    d();
  });
}

void FlashMedia::read(Bytes offset, Bytes bytes, Done done, Time from) {
  // Pages sense on their dies in parallel; each then crosses its die's channel.
  Time last = from;
  for_each_page(offset, bytes, [this, &last, from](int die, Bytes page_bytes) {
    const Time sensing = sensing_time();
    const Time sensed = dies_[static_cast<std::size_t>(die)].book(from, sensing, "sense") + sensing;
    const Time transfer = channel_time(page_bytes);
    Timeline& channel = channel_of(die);
    last = std::max(last, channel.book(sensed, transfer, "page out") + transfer);
  });
  finish_at(last, done);
}

void FlashMedia::program(Bytes offset, Bytes bytes, Done done) {
  // Each page crosses the channel into its die's page register, then programs.
  Time last = owner_.now();
  for_each_page(offset, bytes, [this, &last](int die, Bytes page_bytes) {
    const Time transfer = channel_time(page_bytes);
    Timeline& channel = channel_of(die);
    const Time loaded = channel.book(owner_.now(), transfer, "page in") + transfer;
    last = std::max(last, dies_[static_cast<std::size_t>(die)].book(loaded, g_.program_time, "program") + g_.program_time);
  });
  finish_at(last, done);
}

}  // namespace iowall
