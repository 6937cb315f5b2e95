#include "models/pcie/tlp_link_sim.hpp"

#include "sim/core/interrupt.hpp"

#include <algorithm>
#include <deque>
#include <vector>

#include "sim/core/event_queue.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall::pcie {
namespace {

enum class TlpKind : std::uint8_t { mwr, mrd, cpld };

struct Tlp {
  TlpKind kind;
  i64 payload;
  int tag;  // for MRd and CplD
};

class LinkSim;

// One direction's transmitter: SKP when due, then DLLPs, then TLPs that have credits.
struct Transmitter {
  LinkSim* sim;
  int dir;  // 0: requester -> completer, 1: completer -> requester
  std::deque<Tlp> tlps;
  int acks_pending = 0, fcs_pending = 0;
  i64 fc_posted_h = 0, fc_posted_d = 0, fc_np_h = 0;  // credits to return with the next UpdateFC
  i64 since_skp = 0;
  bool busy = false;
  i64 bytes = 0;
  // Credits this transmitter may use at the far receiver.
  i64 posted_h = 0, posted_d = 0, np_h = 0;
  void kick();
};

class LinkSim {
public:
  explicit LinkSim(const TlpSimConfig& c) : c_(c), tx_{Transmitter{this, 0, {}}, Transmitter{this, 1, {}}} {
    for (Transmitter& t : tx_) {
      t.posted_h = c.posted_header_credits;
      t.posted_d = c.posted_data_credits;
      t.np_h = c.nonposted_header_credits;
    }
    bw_ = encoded_bandwidth(c.link);
  }

  TlpSimResult run() {
    // The stream's TLPs are made as the transmitter takes them, not up front: a
    // 16 GiB stream is 64 M of them.
    if (c_.op == Op::write) {
      writes_ = Stream(c_.transfer_size, c_.link.mps, c_.transfers);
    } else {
      reads_ = Stream(c_.transfer_size, c_.link.mrrs, c_.transfers);
      tag_left_.assign(static_cast<std::size_t>(c_.tags), 0);
      for (int tag = 0; tag < c_.tags; ++tag) free_tags_.push_back(tag);
      issue_reads();
    }
    tx_[0].kick();
    for (std::uint32_t n = 1; q_.step(); ++n) {
      if ((n & 0xFFFF) == 0) throw_if_interrupted();
    }
    result_.elapsed = last_delivery_;
    result_.payload = delivered_;
    result_.data_dir_bytes = c_.op == Op::write ? tx_[0].bytes : tx_[1].bytes;
    result_.rev_dir_bytes = c_.op == Op::write ? tx_[1].bytes : tx_[0].bytes;
    result_.effective = throughput(Bytes(delivered_), std::max(last_delivery_, Time(1)));
    return result_;
  }

  void kick(Transmitter& t) {
    if (t.busy) return;
    if (t.dir == 0 && t.tlps.empty() && writes_.left() && engine_ready(writes_.at_transfer_start(), [this] { kick(tx_[0]); }))
      t.tlps.push_back({TlpKind::mwr, writes_.next(), -1});
    i64 bytes = 0;
    const LinkConfig& l = c_.link;
    bool tlp_sent = false, is_skp = false;
    Tlp tlp{};
    if (!l.flit() && t.since_skp >= kSkpInterval - kSkpBytes) {
      bytes = kSkpBytes;
      t.since_skp = 0;
      ++result_.skps;
      is_skp = true;
    } else if (!l.flit() && (t.acks_pending > 0 || t.fcs_pending > 0)) {
      bytes = kDllpBytes;
      ++result_.dllps;
      if (t.acks_pending > 0) {
        --t.acks_pending;
      } else {
        --t.fcs_pending;
        // The UpdateFC returns all credits freed so far to the far transmitter.
        const std::uint32_t index = returns_.acquire({1 - t.dir, t.fc_posted_h, t.fc_posted_d, t.fc_np_h});
        t.fc_posted_h = t.fc_posted_d = t.fc_np_h = 0;
        q_.schedule(q_.now() + transfer_time(Bytes(bytes), bw_) + c_.latency, [this, index] {
          const CreditReturn r = returns_[index];
          returns_.release(index);
          Transmitter& far = tx_[r.to_dir];
          far.posted_h += r.posted_h;
          far.posted_d += r.posted_d;
          far.np_h += r.np_h;
          kick(far);
        });
      }
    } else if (!t.tlps.empty()) {
      tlp = t.tlps.front();
      const i64 data_credits = (tlp.payload + 15) / 16;
      if (tlp.kind == TlpKind::mwr && (t.posted_h < 1 || t.posted_d < data_credits)) {
        ++result_.credit_stalls;
        return;  // waits for an UpdateFC
      }
      if (tlp.kind == TlpKind::mrd && t.np_h < 1) {
        ++result_.credit_stalls;
        return;
      }
      if (tlp.kind == TlpKind::mwr) {
        --t.posted_h;
        t.posted_d -= data_credits;
      } else if (tlp.kind == TlpKind::mrd) {
        --t.np_h;
      }
      t.tlps.pop_front();
      // A read request carries no data: its `payload` is the size it asks for.
      bytes = tlp.kind == TlpKind::mrd ? mrd_overhead(l)
                                    : tlp.payload + (tlp.kind == TlpKind::mwr ? mwr_overhead(l) : cpld_overhead(l));
      if (l.flit()) bytes = (bytes * 256 + 235) / 236;  // its share of flits
      tlp_sent = true;
      if (tlp.kind == TlpKind::mrd) ++result_.requests; else ++result_.data_tlps;
    } else {
      return;
    }
    t.busy = true;
    t.bytes += bytes;
    if (!is_skp) t.since_skp += bytes;
    const Time end = q_.now() + transfer_time(Bytes(bytes), bw_);
    q_.schedule(end, [this, &t] {
      t.busy = false;
      kick(t);
    });
    if (tlp_sent) {
      const i64 b = bytes;
      const int dir = t.dir;
      const std::uint32_t index = pending_tlps_.acquire(tlp);
      q_.schedule(end + c_.latency, [this, b, index, dir] {
        const Tlp arrived = pending_tlps_[index];
        pending_tlps_.release(index);
        receive(arrived, b, dir);
      });
    }
  }

private:
  struct CreditReturn {
    int to_dir;
    i64 posted_h, posted_d, np_h;
  };

  // A TLP sent in direction `dir` reaches the receiver at the far end.
  void receive(Tlp tlp, i64 wire_bytes, int dir) {
    Transmitter& back = tx_[1 - dir];  // DLLPs about this direction travel the other way
    const LinkConfig& l = c_.link;
    if (!l.flit()) {
      rx_since_ack_[dir] += wire_bytes;
      while (rx_since_ack_[dir] >= ack_interval(l)) {
        rx_since_ack_[dir] -= ack_interval(l);
        ++back.acks_pending;
      }
    }
    if (tlp.kind != TlpKind::cpld) {
      // The receiver drains at once; the freed credits go back in UpdateFC DLLPs.
      if (tlp.kind == TlpKind::mwr) {
        ++back.fc_posted_h;
        back.fc_posted_d += (tlp.payload + 15) / 16;
      } else {
        ++back.fc_np_h;
      }
      rx_since_fc_[dir] += wire_bytes;
      if (l.flit()) {
        // In FLIT mode flow control rides in the flits: credits return with the next flit.
        Transmitter& far = tx_[dir];
        far.posted_h += back.fc_posted_h;
        far.posted_d += back.fc_posted_d;
        far.np_h += back.fc_np_h;
        back.fc_posted_h = back.fc_posted_d = back.fc_np_h = 0;
        kick(far);
      } else if (rx_since_fc_[dir] >= fc_interval(l) || 2 * back.fc_posted_d >= c_.posted_data_credits ||
                 2 * back.fc_posted_h >= c_.posted_header_credits || 2 * back.fc_np_h >= c_.nonposted_header_credits) {
        // An UpdateFC at the spec's interval, or sooner when half the receive buffer is
        // waiting to be returned (a small buffer would otherwise stall the sender).
        rx_since_fc_[dir] = 0;
        ++back.fcs_pending;
      }
    }
    if (tlp.kind == TlpKind::mwr) deliver(tlp.payload);
    if (tlp.kind == TlpKind::mrd) {
      // The completer answers after its latency with completions of MPS (or RCB) bytes.
      const std::uint32_t index = pending_tlps_.acquire(tlp);
      q_.schedule(q_.now() + c_.completer_latency, [this, index] {
        const Tlp req = pending_tlps_[index];
        pending_tlps_.release(index);
        const i64 cpl = c_.link.rcb_split ? std::min(c_.link.rcb, c_.link.mps) : c_.link.mps;
        for (i64 off = 0; off < req.payload; off += cpl)
          tx_[1].tlps.push_back({TlpKind::cpld, std::min(cpl, req.payload - off), req.tag});
        kick(tx_[1]);
      });
    }
    if (tlp.kind == TlpKind::cpld) {
      deliver(tlp.payload);
      auto& left = tag_left_[static_cast<std::size_t>(tlp.tag)];
      left -= tlp.payload;
      if (left == 0) {
        free_tags_.push_back(tlp.tag);
        issue_reads();
      }
    }
    kick(back);
  }

  void deliver(i64 payload) {
    delivered_ += payload;
    last_delivery_ = q_.now();
  }

  // The DMA engine's pacing: a new transfer (its first piece) starts no sooner than
  // engine_interval after the previous one; until then `wake` is scheduled once, for when
  // it may.
  template <typename Wake>
  bool engine_ready(bool transfer_start, Wake wake) {
    if (!c_.engine_interval.is_positive() || !transfer_start) return true;
    if (q_.now() >= next_start_) {
      next_start_ = q_.now() + c_.engine_interval;
      return true;
    }
    if (!engine_wake_pending_) {
      engine_wake_pending_ = true;
      q_.schedule(next_start_, [this, wake] {
        engine_wake_pending_ = false;
        wake();
      });
    }
    return false;
  }

  void issue_reads() {
    while (!free_tags_.empty() && reads_.left() && engine_ready(reads_.at_transfer_start(), [this] { issue_reads(); })) {
      const int tag = free_tags_.front();
      free_tags_.pop_front();
      const i64 size = reads_.next();
      tag_left_[static_cast<std::size_t>(tag)] = size;
      tx_[0].tlps.push_back({TlpKind::mrd, size, tag});
    }
    kick(tx_[0]);
  }

  TlpSimConfig c_;
  EventQueue q_;
  Transmitter tx_[2];
  Bandwidth bw_;
  TlpSimResult result_;
  i64 rx_since_ack_[2] = {0, 0}, rx_since_fc_[2] = {0, 0};
  // `transfers` transfers of `size` bytes cut into pieces of at most `piece` bytes,
  // handed out in order.
  class Stream {
  public:
    Stream() = default;
    Stream(i64 size, i64 piece, i64 transfers)
        : size_(size), piece_(piece), per_transfer_((size + piece - 1) / piece), total_(per_transfer_ * transfers) {}
    bool left() const { return next_ < total_; }
    bool at_transfer_start() const { return next_ % per_transfer_ == 0; }
    i64 next() {
      const i64 off = (next_++ % per_transfer_) * piece_;
      return std::min(piece_, size_ - off);
    }

  private:
    i64 size_ = 0, piece_ = 1, per_transfer_ = 1, total_ = 0, next_ = 0;
  };
  SlotPool<Tlp> pending_tlps_;  // TLPs in flight, addressed by index from events
  SlotPool<CreditReturn> returns_;
  Stream writes_, reads_;  // MWr payloads, MRd sizes
  std::deque<int> free_tags_;
  std::vector<i64> tag_left_;
  i64 delivered_ = 0;
  Time last_delivery_{};
  Time next_start_{};  // engine_interval: when the DMA engine may start its next transfer
  bool engine_wake_pending_ = false;
};

void Transmitter::kick() { sim->kick(*this); }

}  // namespace

TlpSimResult simulate_stream(const TlpSimConfig& config) {
  LinkSim sim(config);
  return sim.run();
}

}  // namespace iowall::pcie
