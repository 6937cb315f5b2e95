// DCQCN at the fabric's senders and receivers (dcqcn.hpp has the rate arithmetic): the
// receiver returns at most one CNP per flow per interval for marked frames, over the
// idle reverse path; the sender cuts its rate on a CNP and raises it by its byte
// counter and its increase timer, while alpha decays on its own timer. A message flow
// that idled takes the timer periods it missed when it sends again.
#include <algorithm>
#include <vector>

#include "models/net/congestion_control.hpp"

namespace iowall::net {

namespace {

class Dcqcn final : public PacedSender<Dcqcn> {
public:
  using PacedSender::PacedSender;

  void add_flow(int fi) override {
    State s;
    s.rate = DcqcnRate(core_.cfg.dcqcn, core_.ports[core_.flows[fi].routes[0][0]].rate);
    flows_.push_back(s);
  }
  void start(int fi) override {
    send(fi);
    schedule_increase(fi);
    schedule_alpha(fi);
  }
  void resume(int fi) override {
    restart_timers(fi);
    resume_sending(fi);
  }
  // Receiver (notification point): one CNP per flow per interval for marked packets.
  void on_delivered(int fi, const Packet& k) override {
    State& s = flows_[fi];
    const Time now = core_.now();
    if (!k.ecn || (!s.last_cnp.is_negative() && now - s.last_cnp < core_.cfg.dcqcn.cnp_interval)) return;
    s.last_cnp = now;
    ++core_.flows[fi].stats.cnps;
    Dcqcn* self = this;
    core_.ctx().in(core_.flows[fi].cnp_delay, [self, fi] { self->on_cnp(fi); });
  }
  Bandwidth final_rate(int fi, Bandwidth) const override { return flows_[fi].rate.rate(); }

  bool admit(int, Bytes) { return true; }
  Bandwidth sent(int fi, Bytes bytes) {
    DcqcnRate& r = flows_[fi].rate;
    r.on_sent(bytes);
    return r.rate();
  }

private:
  struct State {
    DcqcnRate rate;
    Time last_cnp = Time(-1);
    EventId increase;
    bool increase_on = false, alpha_on = false;  // timers scheduled
    Time increase_off, alpha_off;                 // ...or when each last fired
  };

  void on_cnp(int fi) {
    if (!FabricCore::active(core_.flows[fi])) return;
    flows_[fi].rate.on_cnp();
    core_.ctx().queue().cancel(flows_[fi].increase);  // a CNP restarts the increase timer
    schedule_increase(fi);
  }
  void schedule_increase(int fi) {
    Dcqcn* self = this;
    flows_[fi].increase_on = true;
    flows_[fi].increase = core_.ctx().in(core_.cfg.dcqcn.increase_timer, [self, fi] {
      State& s = self->flows_[fi];
      if (!FabricCore::active(self->core_.flows[fi])) {
        s.increase_on = false;
        s.increase_off = self->core_.now();
        return;
      }
      s.rate.on_increase_timer();
      self->schedule_increase(fi);
    });
  }
  void schedule_alpha(int fi) {
    Dcqcn* self = this;
    flows_[fi].alpha_on = true;
    core_.ctx().in(core_.cfg.dcqcn.alpha_timer, [self, fi] {
      State& s = self->flows_[fi];
      if (!FabricCore::active(self->core_.flows[fi])) {
        s.alpha_on = false;
        s.alpha_off = self->core_.now();
        return;
      }
      s.rate.on_alpha_timer();
      self->schedule_alpha(fi);
    });
  }
  // A NIC's DCQCN timers keep running while its queue pair is idle; rather than an
  // event per period, a flow that starts sending again takes the periods it missed
  // (no CNP and no bytes came meanwhile, so only the timer stages move).
  void restart_timers(int fi) {
    State& s = flows_[fi];
    const Time now = core_.now();
    const DcqcnConfig& c = core_.cfg.dcqcn;
    if (!s.increase_on) {
      // Past this many AI steps any cut has recovered to line rate.
      const i64 missed = std::min<i64>((now - s.increase_off) / c.increase_timer, 1'000'000);
      for (i64 i = 0; i < missed; ++i) {
        const Bandwidth before = s.rate.rate();
        s.rate.on_increase_timer();
        if (s.rate.rate() == before) break;  // at line rate (or as near as halving gets)
      }
      schedule_increase(fi);
    }
    if (!s.alpha_on) {
      // Alpha is below 1e-9 of itself after this many periods (g = 1/256): nothing left to decay.
      const i64 missed = std::min<i64>((now - s.alpha_off) / c.alpha_timer, 6000);
      for (i64 i = 0; i < missed; ++i) s.rate.on_alpha_timer();
      schedule_alpha(fi);
    }
  }

  std::vector<State> flows_;  // by flow
};

}  // namespace

std::unique_ptr<SenderControl> make_dcqcn_sender(FabricCore& core) { return std::make_unique<Dcqcn>(core); }

}  // namespace iowall::net
