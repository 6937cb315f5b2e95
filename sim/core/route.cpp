#include "sim/core/route.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace iowall {

const Hop* Route::narrowest(Bytes chunk) const {
  const Hop* best = nullptr;
  Time worst{};
  for (const Hop& h : hops) {
    const Time t = h.service(chunk);
    if (!best || t > worst) {
      best = &h;
      worst = t;
    }
  }
  return best;
}

Bandwidth Route::bottleneck(Bytes chunk) const {
  const Hop* h = narrowest(chunk);
  if (!h) return Bandwidth(0);
  const Time t = h->service(chunk);
  return throughput(chunk, t);
}

Time Route::latency() const {
  Time t{};
  for (const Hop& h : hops) t += h.latency;
  return t;
}

std::string Route::describe() const { return fmt::format("{}", fmt::join(devices, " > ")); }

std::uint32_t RouteMover::allocate() {
  if (free_ != UINT32_MAX) {
    const std::uint32_t t = free_;
    free_ = pool_[t].next_free;
    return t;
  }
  pool_.push_back({});
  return static_cast<std::uint32_t>(pool_.size() - 1);
}

void RouteMover::send(const Route& route, Bytes bytes, Done done, DmaKind kind, int tc) {
  start(route, bytes, done, {}, kind, tc);
}

void RouteMover::start(const Route& route, Bytes bytes, Done done, Arriving arriving, DmaKind kind, int tc) {
  const std::uint32_t t = allocate();
  pool_[t] = Transfer{&route, bytes, done, arriving, UINT32_MAX, kind, tc};
  ++in_flight_;
  const Bytes piece(ctx_.fidelity() == Fidelity::tlp ? packet_payload(route, kind) : 0);
  if (piece.is_positive() && bytes > piece && !route.hops.empty()) {
    // TLP fidelity: every packet travels on its own; the transfer is done when the
    // last one arrives. The DMA engine issues them back to back.
    pool_[t].pieces_left = ceil_div(bytes, piece);
    for (Bytes off; off < bytes; off += piece) {
      const std::uint32_t p = allocate();
      pool_[p] = Transfer{&route, std::min(piece, bytes - off), {}, {}, UINT32_MAX, kind, tc, t};
      enter(p, 0, ctx_.now());
    }
    return;
  }
  if (route.hops.empty()) {
    ctx_.at(ctx_.now(), [this, t] { complete(t); });
    return;
  }
  enter(t, 0, ctx_.now());
}

void RouteMover::send_arriving(const Route& route, Bytes bytes, Arriving arriving, DmaKind kind) {
  start(route, bytes, {}, arriving, kind, 0);
}

bool RouteMover::signals_are_packets() const { return ctx_.fidelity() == Fidelity::tlp; }

void RouteMover::signal(const Route& route, Bytes bytes, Done done, DmaKind kind) {
  if (signals_are_packets() || route.hops.empty()) {
    send(route, bytes, done, kind);
    return;
  }
  const Time arrival = pass(route, bytes, kind, ctx_.now());
  if (done) call_at(arrival, done);  // a posted write nobody waits for costs no event
}

Time RouteMover::pass(const Route& route, Bytes bytes, DmaKind kind, Time depart) {
  // The same head/tail arithmetic as enter(). The message waits behind what each hop
  // has queued when it is sent (as a packet in a FIFO link queue would: posted writes
  // do not pass posted writes), and charges its own time to the hop.
  Time head = depart, tail_in = depart, tail_out = depart;
  for (std::size_t i = 0; i < route.hops.size(); ++i) {
    const Hop& hop = route.hops[i];
    const Time service = hop.service(bytes, kind);
    const Time start = std::max(head, hop.server->drain_time(hop.class_by_tc ? 0 : hop.job_class));
    hop.server->charge(service);
    if (hop.payload) hop.payload->add(static_cast<std::uint64_t>(bytes.count()));
    tail_out = std::max(start + service, tail_in) + hop.latency;
    head = i + 1 < route.hops.size() && route.hops[i + 1].store_and_forward ? tail_out : start + hop.latency;
    tail_in = tail_out;
  }
  return tail_out;
}

void RouteMover::call_at(Time at, Done done) {
  const std::uint32_t t = allocate();
  pool_[t] = Transfer{nullptr, Bytes(0), done, {}, UINT32_MAX, DmaKind::write, 0};
  ++in_flight_;
  ctx_.at(at, [this, t] { complete(t); });
}

void RouteMover::enter(std::uint32_t t, std::uint32_t hop_index, Time tail_in) {
  const Transfer& tr = pool_[t];
  const Hop& hop = tr.route->hops[hop_index];
  Server& server = *hop.server;
  if (server.full()) {
    // Backpressure: wait at this hop's input until its queue has room.
    server.wait_for_space([this, t, hop_index, tail_in] { enter(t, hop_index, tail_in); });
    return;
  }
  const Time service = hop.service(tr.bytes, tr.kind);
  const int job_class = hop.class_by_tc ? tr.tc : hop.job_class;
  server.submit(service, tail_in, [this, t, hop_index](Time start, Time end) {
    const Transfer& tr = pool_[t];
    const Hop& hop = tr.route->hops[hop_index];
    if (hop.payload) hop.payload->add(static_cast<std::uint64_t>(tr.bytes.count()));
    const Time tail_out = end + hop.latency;
    if (hop_index + 1 < tr.route->hops.size()) {
      // The first byte reaches the next hop one hop latency after service began here;
      // a store-and-forward device sends it on only once the last byte is in.
      const Time head_next = tr.route->hops[hop_index + 1].store_and_forward ? tail_out : start + hop.latency;
      ctx_.at(head_next, [this, t, hop_index, tail_out] { enter(t, hop_index + 1, tail_out); });
    } else if (tr.arriving && tr.parent == UINT32_MAX) {  // (at tlp fidelity: when the last TLP is in)
      const Arriving arriving = tr.arriving;
      release(t);
      arriving(tail_out);
    } else {
      ctx_.at(tail_out, [this, t] { complete(t); });
    }
  }, {}, job_class);
}

}  // namespace iowall

namespace iowall {

void RouteMover::complete(std::uint32_t t) {
  const std::uint32_t parent = pool_[t].parent;
  const Done done = pool_[t].done;
  const Arriving arriving = pool_[t].arriving;
  if (parent != UINT32_MAX) {
    free_slot(t);  // a TLP of a transfer: the transfer itself stays in flight
    if (--pool_[parent].pieces_left == 0) complete(parent);
    return;
  }
  release(t);
  if (done) {
    done();
  } else if (arriving) {
    arriving(ctx_.now());
  }  // else a posted write nobody waits for
}

void RouteMover::free_slot(std::uint32_t t) {
  pool_[t].next_free = free_;
  free_ = t;
}

void RouteMover::release(std::uint32_t t) {
  free_slot(t);
  --in_flight_;
}

i64 RouteMover::packet_payload(const Route& route, DmaKind kind) {
  i64 best = 0;
  for (const Hop& h : route.hops) {
    const WireFormat* w = kind == DmaKind::read && h.wire_read ? h.wire_read : h.wire;
    if (w && w->max_payload > 0 && (best == 0 || w->max_payload < best)) best = w->max_payload;
  }
  return best;
}

}  // namespace iowall
