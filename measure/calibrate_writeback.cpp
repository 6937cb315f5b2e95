// The page-cache write stages (measure/calibrate_writes.hpp): a buffered write's cost
// from the write phase of cpu_cached writes at QD1, and the flusher's rate from the
// fsyncs that wrote their dirty data back, given the drive's write fit.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "measure/calibrate_stages.hpp"
#include "measure/calibrate_writes.hpp"

namespace iowall::calib {
namespace {

using stages::round_sig;

// The minimum of `f` on [lo, hi], a function with one minimum there (to 1e-6 of the range).
template <typename F>
double golden_section(F&& f, double lo, double hi) {
  const double k = (std::sqrt(5.0) - 1) / 2;
  double a = hi - k * (hi - lo), b = lo + k * (hi - lo), fa = f(a), fb = f(b);
  while (hi - lo > 1e-6 * (std::fabs(lo) + std::fabs(hi) + 1)) {
    if (fa <= fb) {
      hi = b, b = a, fb = fa, a = hi - k * (hi - lo), fa = f(a);
    } else {
      lo = a, a = b, fa = fb, b = lo + k * (hi - lo), fb = f(b);
    }
  }
  return (lo + hi) / 2;
}

// buffered: one writer's time per write() at QD1 (its writes over the write phase) =
// fixed + size / bandwidth. At a deeper io_uring queue the kernel hands buffered writes to
// its workers, and the thread's own time no longer shows (the io_wq stage below).
class BufferedWriteStage final : public WriteStage {
public:
  const char* name() const override { return "buffered"; }
  // Only where no sync ran among the writes (none, or one at the end): the write phase
  // then holds nothing but the writes.
  bool takes(const PointGroup& g) const override {
    const std::string d = g.durability();
    return g.xfer == "cpu_cached" && g.qd == 1 && g.threads == 1 && g.size > 0 && (d == "none" || d == "fsync_end") &&
           g.median_write_phase_s().has_value();
  }
  void fit(const std::vector<const PointGroup*>& pts, Profile& prof) const override {
    std::vector<std::pair<double, double>> st;
    BufferedWriteFit f;
    for (const PointGroup* g : pts) {
      const double writes = static_cast<double>(g->size) / static_cast<double>(g->io_size);
      st.emplace_back(static_cast<double>(g->io_size), *g->median_write_phase_s() / writes);
      f.from.add(*g);
    }
    const std::optional<SizeLine> line = stages::fit_size_line(st);
    if (!line) {
      prof.notes.push_back("buffered writes: needs cpu_cached writes by one thread at QD1 of two or more I/O sizes, "
                           "with their write phase recorded");
      return;
    }
    f.line = *line;
    prof.writes.buffered = f;
  }
};

// io_wq: buffered writes submitted through io_uring go to its io-wq worker, which runs the
// writes of one file one at a time (hashed by inode; the inode lock serializes the rings'
// workers of one file too); a write is handed off and back beside that. With `n` writes in
// flight, the time per write over the write phase is max(serial + size / bandwidth,
// (fixed + size / bandwidth) / n), fixed and bandwidth the QD1 fit's: the serial part is
// fitted (golden section on log time) from the io_uring groups with several writes in flight,
// and the handoff is the rest of the QD1 fixed time.
class IoWqStage final : public WriteStage {
public:
  const char* name() const override { return "io_wq"; }
  bool takes(const PointGroup& g) const override {
    const std::string d = g.durability();
    return g.xfer == "cpu_cached" && g.engine == "io_uring" && g.concurrency() > 1 && g.size > 0 &&
           (d == "none" || d == "fsync_end") && g.median_write_phase_s().has_value();
  }
  void fit(const std::vector<const PointGroup*>& pts, Profile& prof) const override {
    if (pts.empty() || !prof.writes.buffered) return;  // nothing to tell the worker's serial part from
    BufferedWriteFit& b = *prof.writes.buffered;
    const double fixed = b.line.fixed_s;
    const double per_byte = b.line.bandwidth_identified ? 1 / b.line.bandwidth_Bps : 0;
    auto cost = [&](double serial) {
      double c = 0;
      for (const PointGroup* g : pts) {
        const double s = static_cast<double>(g->io_size);
        const double measured = *g->median_write_phase_s() / (static_cast<double>(g->size) / s);
        const double model = std::max(serial + s * per_byte, (fixed + s * per_byte) / g->concurrency());
        c += std::pow(std::log(model / measured), 2);
      }
      return c;
    };
    const double serial = golden_section(cost, 0, fixed);
    b.io_wq_serial_s = serial;
    b.io_wq_rms = std::sqrt(cost(serial) / static_cast<double>(pts.size()));
    for (const PointGroup* g : pts) b.io_wq_from.add(*g);
  }
};

// The background threshold of a group's run, bytes: dirty data past it is written back
// before any fsync asks (vm.dirty_background_bytes, else the ratio of the available memory).
std::optional<double> background_threshold(const PointGroup& g) {
  if (!g.vm) return std::nullopt;
  const measure::MeasuredVm& v = *g.vm;
  if (v.dirty_background_bytes && *v.dirty_background_bytes > 0) return static_cast<double>(*v.dirty_background_bytes);
  if (v.dirty_background_ratio && v.mem_available_bytes)
    return *v.dirty_background_ratio / 100 * static_cast<double>(*v.mem_available_bytes);
  return std::nullopt;
}

bool same(const measure::MeasuredVm& a, const measure::MeasuredVm& b) {
  return a.dirty_ratio == b.dirty_ratio && a.dirty_background_ratio == b.dirty_background_ratio &&
         a.dirty_bytes == b.dirty_bytes && a.dirty_background_bytes == b.dirty_background_bytes &&
         a.dirty_expire_centisecs == b.dirty_expire_centisecs &&
         a.dirty_writeback_centisecs == b.dirty_writeback_centisecs;
}

// writeback: the flusher's rate (flusher_bandwidth) fitted to the fsync latencies of
// buffered writes, on log time: each fsync writes back what was dirtied since the last one
// in requests of max_sectors_kb, prepared by the flusher and written by the drive (its
// write fit), then the drive's flush.
class WritebackStage final : public WriteStage {
public:
  const char* name() const override { return "writeback"; }
  bool takes(const PointGroup& g) const override {
    const std::string d = g.durability();
    return g.xfer == "cpu_cached" && (d == "fsync_end" || d == "fsync_each") && g.median_sync_s().has_value();
  }
  void fit(const std::vector<const PointGroup*>& taken, Profile& prof) const override {
    if (taken.empty()) {
      prof.notes.push_back("writeback: needs cpu_cached writes made durable by fsync (end_fsync or fsync N)");
      return;
    }
    WritebackFit f;
    // The settings as the runs recorded them: the first run's, said so when others differ.
    std::map<i64, int> requests;
    for (const PointGroup* g : taken) {
      f.from.add(*g);
      if (g->max_request_bytes) ++requests[*g->max_request_bytes];
      if (!g->vm) continue;
      if (!f.vm) f.vm = g->vm;
      else if (!same(*f.vm, *g->vm))
        prof.notes.push_back(fmt::format("writeback: {} ran with other vm.dirty_* settings than the first; the "
                                         "first's are kept",
                                         g->key()));
    }
    if (!requests.empty())
      f.request_bytes = std::max_element(requests.begin(), requests.end(), [](const auto& a, const auto& b) {
                          return a.second < b.second;
                        })->first;
    if (requests.size() > 1)
      prof.notes.push_back("writeback: the runs' max_sectors_kb differ; the most common is kept");
    if (!prof.writes.drive) {
      prof.notes.push_back(
          "writeback: needs the drive's write fit (cpu_only writes) to tell the flusher from the drive");
      prof.writes.writeback = f;
      return;
    }
    // Only fsyncs that find all their data still dirty: below the background threshold.
    std::vector<const PointGroup*> pts;
    for (const PointGroup* g : taken) {
      const std::optional<double> bg = background_threshold(*g);
      if (bg && dirty_per_sync(*g) > *bg) {
        prof.notes.push_back(fmt::format("writeback: {} dirtied more than the background threshold ({}): not fitted",
                                         g->key(), to_string(Bytes(static_cast<i64>(*bg)))));
        continue;
      }
      pts.push_back(g);
    }
    const DriveWriteInputs d = drive_write_inputs(prof);
    const double request = f.request_bytes > 0 ? static_cast<double>(f.request_bytes) : kDefaultWritebackRequest;
    const int n = static_cast<int>(pts.size());
    if (n == 0) {
      prof.writes.writeback = f;
      return;
    }
    auto sync_time = [&](double w, const PointGroup& g) {
      return writeback_sync_time(d, dirty_per_sync(g), request, kWritebackDepth, w);
    };
    auto residuals = [&](const Eigen::VectorXd& th, Eigen::VectorXd& r) {
      for (int i = 0; i < n; ++i) {
        const PointGroup& g = *pts[static_cast<std::size_t>(i)];
        r[i] = std::log(sync_time(std::exp(th[0]), g)) - std::log(*g.median_sync_s());
      }
    };
    // One parameter, and a kink where the flusher's rate passes the drive's (beyond it only
    // the first request's preparation depends on it): a golden-section search on log rate
    // from a tenth of the slowest measured writeback rate to ten times the drive's ceiling.
    const double drive_ceiling = drive_write_ceiling(d, request);
    double slowest = drive_ceiling;
    for (const PointGroup* g : pts) slowest = std::min(slowest, dirty_per_sync(*g) / *g->median_sync_s());
    Eigen::VectorXd th(1), r(n);
    auto cost = [&](double log_w) {
      th[0] = log_w;
      residuals(th, r);
      return r.squaredNorm();
    };
    const double w = std::exp(golden_section(cost, std::log(slowest / 10), std::log(10 * drive_ceiling)));
    th[0] = std::log(w);
    // Within 2% of the drive's ceiling, the flusher's rate is not told from the drive's.
    f.flusher_identified = w < 0.98 * drive_ceiling;
    f.flusher_Bps = f.flusher_identified ? w : 0;
    if (!f.flusher_identified)
      prof.notes.push_back(fmt::format("writeback: the drive's write ceiling ({}) explains the fsync times: the "
                                       "flusher's rate is not what bounds them, flusher_bandwidth is left as it is",
                                       bandwidth_text(drive_ceiling)));
    Eigen::VectorXd observed(n), fitted(n);
    residuals(th, r);
    for (int i = 0; i < n; ++i) {
      const PointGroup& g = *pts[static_cast<std::size_t>(i)];
      observed[i] = std::log(*g.median_sync_s());
      fitted[i] = observed[i] + r[i];
      f.residuals.push_back({{"point", g.key()},
                             {"dirty_per_fsync", to_string(Bytes(static_cast<i64>(dirty_per_sync(g))))},
                             {"measured_fsync", time_text(*g.median_sync_s())},
                             {"fitted_fsync", time_text(std::exp(fitted[i]))},
                             {"error", round_sig(std::exp(r[i]) - 1, 3)}});
    }
    f.q = fit::quality(observed, fitted, 1);
    prof.writes.writeback = f;
  }
};

}  // namespace

namespace stages {
std::unique_ptr<WriteStage> buffered_write_stage() { return std::make_unique<BufferedWriteStage>(); }
std::unique_ptr<WriteStage> io_wq_stage() { return std::make_unique<IoWqStage>(); }
std::unique_ptr<WriteStage> writeback_stage() { return std::make_unique<WritebackStage>(); }
}  // namespace stages

}  // namespace iowall::calib
