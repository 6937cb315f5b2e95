// NSCC at the fabric's senders and receivers (nscc.hpp has the window arithmetic):
// the receiver acknowledges every frame over the idle reverse path, echoing its ECN
// mark; the sender keeps its bytes in flight within the window, paces frames at line
// rate, and waits for an ACK when the window is full.
#include <vector>

#include "models/net/congestion_control.hpp"

namespace iowall::net {

namespace {

class Nscc final : public PacedSender<Nscc> {
public:
  using PacedSender::PacedSender;

  void add_flow(int fi) override {
    State s;
    s.window = NsccWindow(core_.cfg.nscc, line(fi), core_.cfg.frame);
    flows_.push_back(s);
  }
  void start(int fi) override { send(fi); }
  void resume(int fi) override {
    if (!flows_[fi].window_full) resume_sending(fi);
  }
  void on_delivered(int fi, const Packet& k) override {
    // (flow, bytes and mark packed in one word: an event holds 24 bytes.)
    Nscc* self = this;
    // (A frame's bytes fit in 31 bits; packed as a raw count.)
    const std::uint64_t ack =
        static_cast<std::uint64_t>(fi) << 32 | static_cast<std::uint64_t>(k.bytes.count()) << 1 | (k.ecn ? 1U : 0U);
    const Time sent = k.sent;
    core_.ctx().in(core_.flows[fi].cnp_delay, [self, ack, sent] {
      self->on_ack(static_cast<int>(ack >> 32), Bytes(static_cast<i64>((ack & 0xFFFFFFFFU) >> 1)), (ack & 1U) != 0,
                   sent);
    });
  }

  bool admit(int fi, Bytes bytes) {
    State& s = flows_[fi];
    if (s.inflight.is_positive() && s.inflight + bytes > s.window.window()) {
      s.window_full = true;
      return false;
    }
    return true;
  }
  Bandwidth sent(int fi, Bytes bytes) {
    flows_[fi].inflight += bytes;
    return line(fi);
  }

private:
  struct State {
    NsccWindow window;
    Bytes inflight;            // sent and not yet acknowledged
    bool window_full = false;  // waiting for an ACK to open the window
  };

  Bandwidth line(int fi) const { return core_.ports[core_.flows[fi].routes[0][0]].rate; }

  void on_ack(int fi, Bytes bytes, bool marked, Time sent) {
    State& s = flows_[fi];
    s.inflight -= bytes;
    if (marked) ++core_.flows[fi].stats.cnps;  // echoed marks, counted where DCQCN counts CNPs
    const Time now = core_.now();
    s.window.on_ack(bytes, marked, now - sent, now);
    if (s.window_full && !core_.flows[fi].pacing) {
      s.window_full = false;
      send(fi);
    }
  }

  std::vector<State> flows_;  // by flow
};

}  // namespace

std::unique_ptr<SenderControl> make_nscc_sender(FabricCore& core) { return std::make_unique<Nscc>(core); }

}  // namespace iowall::net
