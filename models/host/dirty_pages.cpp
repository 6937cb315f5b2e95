#include "models/host/dirty_pages.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace iowall {
namespace {

// balance_dirty_pages() never pauses a writer longer than this at a time (MAX_PAUSE,
// HZ/5 in mm/page-writeback.c).
constexpr Time kMaxPause = Time(200'000'000'000);
// The kernel re-estimates writeback bandwidth over periods of this length
// (BANDWIDTH_INTERVAL); before one has passed it uses its initial guess.
constexpr Time kBandwidthInterval = Time(200'000'000'000);

}  // namespace

DirtyPages::DirtyPages(SimContext& ctx, std::string name, const DirtyPagesConfig& config)
    : Component(ctx, std::move(name)), config_(config) {
  const auto share = [&](double ratio) { return scale(config_.dirtyable_memory, ratio); };
  thresh_ = config_.bytes.is_positive() ? config_.bytes : share(config_.ratio);
  bg_thresh_ = config_.background_bytes.is_positive() ? config_.background_bytes : share(config_.background_ratio);
  // As domain_dirty_limits(): a background threshold at or above the limit is halved.
  if (bg_thresh_ >= thresh_) bg_thresh_ = thresh_ / 2;
  register_stat("dirty", "bytes", "page-cache data dirty, not yet under writeback", dirty_gauge_);
  register_stat("writeback", "bytes", "page-cache data under writeback", writeback_gauge_);
  register_stat("written_back", "bytes", "bytes written back to storage", written_);
  register_stat("throttled", "ns", "time writers spent paused by balance_dirty_pages", throttle_ns_);
}

DirtyPages::File& DirtyPages::file(WritebackSink& sink) {
  for (auto& f : files_)
    if (f->sink == &sink) return *f;
  files_.push_back(std::make_unique<File>());
  files_.back()->sink = &sink;
  return *files_.back();
}

double DirtyPages::bandwidth() const {
  Time busy = busy_time_;
  if (writeback_ > 0) busy = busy + (now() - busy_since_);
  if (busy < kBandwidthInterval || completed_bytes_ == 0) return config_.initial_bandwidth;
  return static_cast<double>(completed_bytes_) / busy.seconds();
}

Time DirtyPages::pause_for(i64 bytes) const {
  const double total = static_cast<double>(dirty_ + writeback_);
  const double limit = thresh_.bytes_value(), freerun = (bg_thresh_.bytes_value() + limit) / 2;
  if (total <= freerun) return Time(0);
  // The cubic position control of wb_position_ratio(): 2 at freerun, 1 at the setpoint,
  // 0 at the limit.
  const double setpoint = (freerun + limit) / 2;
  const double x = (setpoint - total) / (limit - setpoint);
  const double pos_ratio = std::clamp(1 + x * x * x, 0.0, 2.0);
  const double rate = bandwidth() * pos_ratio;
  if (rate <= 0) return kMaxPause;
  const double seconds = static_cast<double>(bytes) / rate;
  return std::min(kMaxPause, Time(static_cast<i64>(seconds * 1e12)));
}

void DirtyPages::dirtied(WritebackSink& sink, Bytes bytes, Done resume) {
  File& f = file(sink);
  if (f.dirty == 0) f.oldest = now();
  f.dirty += bytes.count();
  f.dirtied_total += bytes.count();
  dirty_ += bytes.count();
  dirty_gauge_.set(now(), dirty_);
  for (auto& g : files_) kick(*g);
  arm_expiry();
  if (dirty_ + writeback_ >= thresh_.count()) {
    // Above the hard limit the writer sleeps until writeback brings it below.
    waiting_.push_back({resume, bytes.count()});
    return;
  }
  const Time pause = pause_for(bytes.count());
  if (pause.is_zero()) {
    resume();
    return;
  }
  resume_after(pause, resume);
}

void DirtyPages::resume_after(Time pause, Done resume) {
  throttled_ = throttled_ + pause;
  throttle_ns_.add(static_cast<std::uint64_t>(pause.whole_ns()));
  const std::uint32_t id = paused_.acquire(resume);
  ctx().in(pause, [this, id] {
    const Done r = paused_[id];
    paused_.release(id);
    r();
  });
}

void DirtyPages::release_waiters() {
  while (!waiting_.empty() && dirty_ + writeback_ < thresh_.count()) {
    const Waiter w = waiting_.front();
    waiting_.pop_front();
    resume_after(pause_for(w.bytes), w.resume);
  }
}

void DirtyPages::kick(File& f) {
  const bool expired = f.dirty > 0 && now() - f.oldest >= config_.expire;
  if (!(background() || !f.syncs.empty() || expired)) return;
  while (f.dirty > 0 && f.in_flight < config_.depth * config_.request.count()) {
    const i64 n = std::min(f.dirty, config_.request.count());
    f.dirty -= n;
    f.in_flight += n;
    dirty_ -= n;
    if (writeback_ == 0) busy_since_ = now();
    writeback_ += n;
    dirty_gauge_.set(now(), dirty_);
    writeback_gauge_.set(now(), writeback_);
    if (f.dirty == 0) f.oldest = Time(0);
    File* fp = &f;
    f.sink->write_back(Bytes(n), [this, fp, n] { completed(*fp, n); });
  }
  // Nothing dirty is left to expire: the flusher's timed wake-up has nothing to do (and
  // would only hold the simulation open until then).
  if (dirty_ == 0 && expiry_armed_) {
    ctx().queue().cancel(expiry_);
    expiry_armed_ = false;
  }
}

void DirtyPages::completed(File& f, i64 bytes) {
  f.in_flight -= bytes;
  f.written_total += bytes;
  writeback_ -= bytes;
  completed_bytes_ += bytes;
  if (writeback_ == 0) busy_time_ = busy_time_ + (now() - busy_since_);
  writeback_gauge_.set(now(), writeback_);
  written_.add(static_cast<std::uint64_t>(bytes));
  finish_syncs(f);
  release_waiters();
  for (auto& g : files_) kick(*g);
}

void DirtyPages::sync(WritebackSink& sink, Done done, SyncScope scope) {
  File& f = file(sink);
  f.syncs.push_back({f.dirtied_total, done, scope});
  kick(f);
  finish_syncs(f);
}

void DirtyPages::finish_syncs(File& f) {
  // One flush at a time; a sync is done once its data is written back and flushed.
  if (f.flushing || f.syncs.empty() || f.written_total < f.syncs.front().target) return;
  f.flushing = true;
  File* fp = &f;
  f.sink->flush(
      [this, fp] {
        const Done done = fp->syncs.front().done;
        fp->syncs.pop_front();
        fp->flushing = false;
        done();
        finish_syncs(*fp);
        kick(*fp);
      },
      f.syncs.front().scope);
}

void DirtyPages::arm_expiry() {
  if (expiry_armed_) return;
  // Data already expired is written back as completions come (kick): the flusher needs a
  // wake-up only for data that expires later.
  Time due = Time::max();
  for (const auto& f : files_)
    if (f->dirty > 0 && f->oldest + config_.expire > now()) due = std::min(due, f->oldest + config_.expire);
  if (due == Time::max()) return;
  // The flusher wakes every writeback interval and takes what has expired by then.
  const Time wake = round_up(due, std::max(Time(1), config_.writeback_interval));
  expiry_armed_ = true;
  expiry_ = ctx().at(wake, [this] {
    expiry_armed_ = false;
    for (auto& f : files_) kick(*f);
    arm_expiry();
  });
}

std::string DirtyPages::pending_work() const {
  std::size_t syncs = 0;
  for (const auto& f : files_) syncs += f->syncs.size();
  if (waiting_.empty() && syncs == 0 && writeback_ == 0) return {};
  return fmt::format("{} B under writeback, {} writers over the dirty limit, {} fsyncs waiting", writeback_,
                     waiting_.size(), syncs);
}

}  // namespace iowall
