#include "models/net/dcqcn.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace iowall::net {

DcqcnConfig DcqcnConfig::read(const Params& p, Bandwidth line) {
  DcqcnConfig c;
  c.enabled = p.get_bool("dcqcn", true, "DCQCN rate control at the senders", "Zhu et al., SIGCOMM'15");
  c.increase_timer = p.get_time("rate_increase_timer", "300 us", "rate-increase timer period", "ConnectX default (mlxconfig)");
  c.byte_counter = p.get_bytes("byte_counter", "32767 B", "bytes between byte-counter increases", "ConnectX default (mlxconfig)");
  c.ai = p.get_bandwidth("ai", "5 Mb/s", "additive increase step", "ConnectX default (mlxconfig)");
  c.hai = p.get_bandwidth("hai", "50 Mb/s", "hyper increase step", "ConnectX default (mlxconfig)");
  c.g = p.get_number("g", 1.0 / 256, 0.0, 1.0, "alpha gain", "ConnectX default (mlxconfig)");
  c.alpha_timer = p.get_time("alpha_timer", "55 us", "alpha update period", "Zhu et al., SIGCOMM'15 (K = 55 us)");
  c.cnp_interval = p.get_time("cnp_interval", "4 us", "minimum time between CNPs of one flow", "ConnectX default (mlxconfig)");
  c.fast_recovery = p.get_int("fast_recovery", 5, 1, 1000, "increase events in fast recovery (F)", "Zhu et al., SIGCOMM'15");
  c.min_rate = p.get_bandwidth("min_rate", "100 Mb/s", "rate floor", "assumption (ConnectX rpg_min_rate)");
  auto positive = [&](const char* key, bool is_positive) {
    if (!is_positive) p.fail(key, "must be positive");
  };
  positive("rate_increase_timer", c.increase_timer.is_positive());
  positive("byte_counter", c.byte_counter.is_positive());
  positive("alpha_timer", c.alpha_timer.is_positive());
  positive("ai", c.ai.is_positive());
  positive("hai", c.hai.is_positive());
  positive("min_rate", c.min_rate.is_positive());
  if (c.cnp_interval.is_negative()) p.fail("cnp_interval", "must not be negative");
  if (!(c.g > 0 && c.g <= 1)) p.fail("g", fmt::format("g {} is out of range (0, 1]", c.g));
  if (c.ai > line) p.fail("ai", "the additive step exceeds the line rate");
  if (c.hai > line) p.fail("hai", "the hyper step exceeds the line rate");
  if (c.min_rate > line) p.fail("min_rate", "the rate floor exceeds the line rate");
  return c;
}

void DcqcnRate::on_cnp() {
  ++cnps_;
  cnp_in_period_ = true;
  rt_ = rc_;
  rc_ = std::max(c_->min_rate, scale(rc_, 1 - alpha_ / 2));
  alpha_ = (1 - c_->g) * alpha_ + c_->g;
  timer_stage_ = byte_stage_ = 0;
  bytes_ = Bytes(0);
}

void DcqcnRate::on_alpha_timer() {
  if (!cnp_in_period_) alpha_ *= (1 - c_->g);
  cnp_in_period_ = false;
}

void DcqcnRate::on_increase_timer() {
  ++timer_stage_;
  increase();
}

bool DcqcnRate::on_sent(Bytes b) {
  bytes_ += b;
  if (bytes_ < c_->byte_counter) return false;
  bytes_ -= c_->byte_counter;
  ++byte_stage_;
  increase();
  return true;
}

void DcqcnRate::increase() {
  const i64 f = c_->fast_recovery;
  const i64 hi = std::max(timer_stage_, byte_stage_), lo = std::min(timer_stage_, byte_stage_);
  if (lo > f)
    rt_ += c_->hai * (lo - f);  // hyper increase: both stages past F
  else if (hi > f)
    rt_ += c_->ai;  // additive increase: one stage past F
  // Fast recovery (the first F events of both stages) only moves rc halfway back to rt.
  rt_ = std::min(rt_, line_);
  rc_ = (rt_ + rc_) / 2;
}

}  // namespace iowall::net
