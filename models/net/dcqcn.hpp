// DCQCN rate control at the sender (reaction point), after Zhu et al., SIGCOMM'15,
// driven by the ECN marks of ecn.hpp: a CNP cuts the rate by alpha/2; a timer and a
// byte counter then raise it in fast-recovery, additive and hyper-increase stages;
// alpha decays while no CNP arrives.
#pragma once
#include "models/net/ecn.hpp"
#include "sim/core/params.hpp"
#include "sim/core/units.hpp"

namespace iowall::net {

struct DcqcnConfig {
  bool enabled = true;
  Time increase_timer;      // rate-increase timer period
  Bytes byte_counter;       // bytes between byte-counter increase events
  Bandwidth ai, hai;        // additive and hyper increase steps
  double g = 1.0 / 256;     // alpha gain
  Time alpha_timer;         // alpha decays every period without a CNP
  Time cnp_interval;        // receiver: at most one CNP per flow per interval
  i64 fast_recovery = 5;    // increase events spent in fast recovery
  Bandwidth min_rate;
  static DcqcnConfig read(const Params& p, Bandwidth line_rate);
};

// One sender's rate state. The owner calls these at the events DCQCN names.
class DcqcnRate {
public:
  DcqcnRate() = default;
  DcqcnRate(const DcqcnConfig& c, Bandwidth line_rate) : c_(&c), line_(line_rate), rc_(line_rate), rt_(line_rate) {}
  void on_cnp();
  void on_alpha_timer();     // one alpha period passed
  void on_increase_timer();  // one rate-increase period passed
  // Counts bytes sent; true when a byte-counter increase happened.
  bool on_sent(Bytes b);
  Bandwidth rate() const { return rc_; }
  Bandwidth target() const { return rt_; }
  double alpha() const { return alpha_; }
  std::uint64_t cnps() const { return cnps_; }

private:
  void increase();
  const DcqcnConfig* c_ = nullptr;
  Bandwidth line_, rc_, rt_;  // line rate, current rate, target rate
  double alpha_ = 1.0;
  bool cnp_in_period_ = false;
  i64 timer_stage_ = 0, byte_stage_ = 0;
  Bytes bytes_;  // sent since the last byte-counter event
  std::uint64_t cnps_ = 0;
};

}  // namespace iowall::net
