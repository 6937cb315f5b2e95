// Sender pacing and congestion control of the packet fabric: how fast each flow's
// sender injects frames, and how it reacts to what the receivers report. One interface
// with implementations chosen by name: "dcqcn" (rate control on CNPs, dcqcn.hpp),
// "nscc" (Ultra Ethernet's window on ECN and delay, nscc.hpp) and "line_rate" (no
// congestion control). An implementation derives from PacedSender, which runs the
// per-frame loop and calls the implementation's admit/sent hooks directly, so the one
// virtual call per packet is the receiver's report (on_delivered).
#pragma once
#include <memory>
#include <string>

#include "models/net/fabric_core.hpp"

namespace iowall::net {

class SenderControl {
public:
  explicit SenderControl(FabricCore& core) : core_(core) {}
  virtual ~SenderControl() = default;
  SenderControl(const SenderControl&) = delete;
  SenderControl& operator=(const SenderControl&) = delete;

  virtual void add_flow(int fi) = 0;   // a flow was built (its state, at its NIC's rate)
  virtual void start(int fi) = 0;      // a byte stream begins: its first frame, then timers
  virtual void resume(int fi) = 0;     // a message flow has bytes again after idling
  virtual void wake(int fi) = 0;       // the NIC's queue has room again
  // At the receiver: a data frame of the flow arrived (after reordering and messages).
  virtual void on_delivered(int fi, const Packet& k) = 0;
  // The rate the flow's sender is at now, given the last one it paced at.
  virtual Bandwidth final_rate(int fi, Bandwidth last) const { return last; }

protected:
  FabricCore& core_;
};

// The control named `name` ("dcqcn", "nscc", "line_rate"); std::logic_error otherwise.
std::unique_ptr<SenderControl> make_sender_control(const std::string& name, FabricCore& core);
// The implementations, each in its own file (sender_dcqcn.cpp, sender_nscc.cpp).
std::unique_ptr<SenderControl> make_dcqcn_sender(FabricCore& core);
std::unique_ptr<SenderControl> make_nscc_sender(FabricCore& core);
// The name a configuration chooses: NSCC when enabled, else DCQCN when enabled.
std::string sender_control_name(const FabricConfig& c);

// The sender's loop: inject one frame when the flow may send and the control admits
// it, then pace the next one at the rate the control returns.
template <class Control>
class PacedSender : public SenderControl {
public:
  using SenderControl::SenderControl;
  void wake(int fi) final { send(fi); }

  void send(int fi) {
    const Bytes bytes = core_.next_frame(fi);
    if (bytes.is_zero()) return;
    Control& c = static_cast<Control&>(*this);
    if (!c.admit(fi, bytes)) return;
    core_.inject(fi, bytes);
    const Bandwidth r = c.sent(fi, bytes);
    core_.note_rate(fi, r);
    core_.flows[fi].pacing = true;
    Control* self = &c;
    core_.ctx().in(transfer_time(bytes + kWireOverhead, r), [self, fi] { self->send(fi); });
  }
  // A message flow's sender picks up again unless a send is already on its way.
  void resume_sending(int fi) {
    const FabricCore::Flow& f = core_.flows[fi];
    if (!f.pacing && !f.waiting) send(fi);
  }
};

}  // namespace iowall::net
