// The write path's closed forms, the flush and drive-write stages, and the order the
// write stages run in (measure/calibrate_writes.hpp).
#include "measure/calibrate_writes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "measure/calibrate_stages.hpp"

namespace iowall::calib {

namespace {
struct Split {
  double commands, command_bytes;
};
Split split(const DriveWriteInputs& d, double size) {
  const double c = std::max(1.0, std::ceil(size / d.mdts_bytes));
  return {c, size / c};
}
// The slowest of a command's pipelined stages: controller, link, write data path (or,
// serial, the controller holding the command through its data path, then the link).
double bottleneck(const DriveWriteInputs& d, double command_bytes) {
  const double link = d.link_Bps > 0 ? command_bytes / d.link_Bps : 0;
  if (d.serial) return std::max(1.0 / d.max_iops + command_bytes / d.bandwidth_Bps, link);
  return std::max({1.0 / d.max_iops, link, command_bytes / d.bandwidth_Bps});
}
}  // namespace

double drive_write_time(const DriveWriteInputs& d, double size) {
  const Split s = split(d, size);
  const double link = d.link_Bps > 0 ? s.command_bytes / d.link_Bps : 0;
  // The first command through every stage, the others one bottleneck interval apart.
  return 1.0 / d.max_iops + link + s.command_bytes / d.bandwidth_Bps + d.latency_s +
         (s.commands - 1) * bottleneck(d, s.command_bytes);
}

double drive_write_ceiling(const DriveWriteInputs& d, double size) {
  const Split s = split(d, size);
  return s.command_bytes / bottleneck(d, s.command_bytes);
}

double direct_write_throughput(const DriveWriteInputs& d, const PointGroup& g, double cpu_s) {
  const double size = static_cast<double>(g.io_size);
  const std::string durability = g.durability();
  const double alone = cpu_s + drive_write_time(d, size) + (durability == "o_dsync" ? d.flush_s : 0);
  double x = std::min(g.concurrency() * size / alone, drive_write_ceiling(d, size));
  if (cpu_s > 0) x = std::min(x, g.threads * size / cpu_s);  // each thread's CPU in series
  const double total = g.size > 0 ? static_cast<double>(g.size) : size * g.threads;
  const double writes_per_thread = std::max(1.0, std::floor(total / g.threads / size));
  const double syncs = durability == "fsync_end"    ? 1
                       : durability == "fsync_each" ? std::ceil(writes_per_thread / std::max(1, g.sync_every()))
                                                    : 0;
  return total / (total / x + syncs * d.flush_s);
}

double writeback_sync_time(const DriveWriteInputs& d, double dirty, double request, int depth, double flusher_Bps) {
  if (dirty <= 0) return d.flush_s;
  request = std::min(request, dirty);
  const double n = std::ceil(dirty / request);
  const double prepare = request / flusher_Bps;
  const double alone = drive_write_time(d, request);
  const double drive_rate = std::min(depth * request / alone, drive_write_ceiling(d, request));
  return prepare + alone + (n - 1) * std::max(prepare, request / drive_rate) + d.flush_s;
}

double dirty_per_sync(const PointGroup& g) {
  const std::string durability = g.durability();
  if (durability == "fsync_end") return static_cast<double>(g.size);
  if (durability == "fsync_each")
    return std::min(static_cast<double>(g.size), static_cast<double>(g.sync_every()) * g.io_size * g.threads);
  return 0;
}

bool drive_write_point(const PointGroup& g) { return g.xfer == "cpu_only" && g.durability() != "o_dsync"; }

double write_link_Bps(const Profile& p) {
  if (!p.storage || p.storage->read == ReadForm::batched) return 0;
  return p.storage->bandwidth_Bps;
}

DriveWriteInputs drive_write_inputs(const Profile& p) {
  DriveWriteInputs d;
  if (p.storage) {
    d.max_iops = p.storage->max_iops;
    d.mdts_bytes = p.storage->mdts_bytes;
  }
  d.link_Bps = write_link_Bps(p);
  if (p.writes.drive) {
    d.latency_s = p.writes.drive->latency_s;
    d.bandwidth_Bps = p.writes.drive->bandwidth_Bps;
    d.serial = p.writes.drive->serial;
  }
  if (p.writes.flush) d.flush_s = p.writes.flush->cost_s;
  return d;
}

namespace {

bool durable_by_syncs(const PointGroup& g) {
  const std::string d = g.durability();
  return d == "fsync_end" || d == "fsync_each";
}

// flush: the median fsync latency of O_DIRECT writes, where nothing is dirty in the page
// cache: what the file system's commit and the drive's flush cost together, the model's
// flush_cost (the drive's Flush after an fsync's writeback, and after each O_DSYNC write).
class FlushStage final : public WriteStage {
public:
  const char* name() const override { return "flush"; }
  bool takes(const PointGroup& g) const override {
    return g.xfer == "cpu_only" && durable_by_syncs(g) && g.median_sync_s().has_value();
  }
  void fit(const std::vector<const PointGroup*>& pts, Profile& prof) const override {
    if (pts.empty()) {
      prof.notes.push_back("flush: needs cpu_only writes made durable by fsync (end_fsync or fsync N)");
      return;
    }
    FlushFit f;
    std::vector<double> v;
    for (const PointGroup* g : pts) {
      v.push_back(*g->median_sync_s());
      f.from.add(*g);
    }
    f.cost_s = median(v);
    prof.writes.flush = f;
  }
};

// drive: write_latency and write_bandwidth of the lumped drive, fitted on log throughput
// (relative errors) of the O_DIRECT write groups, given the read fits' command rate and
// the CPU cost per I/O, and the flush fitted before; once with the controller's
// processing beside the write data path (pipelined) and once in series with it (serial),
// keeping the service that fits best, as the read fit does. Writes made durable one by
// one (O_DSYNC) are left out: their time is as much the flush's as the drive's.
class DriveWriteStage final : public WriteStage {
public:
  const char* name() const override { return "drive"; }
  bool takes(const PointGroup& g) const override { return drive_write_point(g); }
  void fit(const std::vector<const PointGroup*>& pts, Profile& prof) const override {
    if (pts.empty()) {
      prof.notes.push_back("drive writes: needs cpu_only (O_DIRECT) writes not made durable one by one (O_DSYNC)");
      return;
    }
    if (!prof.storage || !prof.cpu) {
      prof.notes.push_back("drive writes: needs the read fits of the same subset (max_iops, shared by reads and "
                           "writes, and the CPU cost per I/O, from cpu_only reads)");
      return;
    }
    const int n = static_cast<int>(pts.size());
    DriveWriteInputs d = drive_write_inputs(prof);
    double max_bw = 0, min_time = 1;
    for (const PointGroup* g : pts) {
      max_bw = std::max(max_bw, g->median_bw());
      if (g->concurrency() == 1) min_time = std::min(min_time, g->io_size / g->median_bw());
    }
    // The fit may not wander off to infinity where the points do not bound the bandwidth
    // (a link slower than the write path sets every rate).
    const double bandwidth_cap = 100 * max_bw;
    bool serial = false;
    auto model = [&](const Eigen::VectorXd& th, int i) {
      DriveWriteInputs t = d;
      t.serial = serial;
      t.latency_s = std::exp(th[0]);
      t.bandwidth_Bps = std::min(std::exp(th[1]), bandwidth_cap);
      const PointGroup& g = *pts[static_cast<std::size_t>(i)];
      return direct_write_throughput(t, g, prof.cpu->at(g.qd, static_cast<double>(g.io_size)));
    };
    auto residuals = [&](const Eigen::VectorXd& th, Eigen::VectorXd& r) {
      for (int i = 0; i < n; ++i)
        r[i] = std::log(model(th, i)) - std::log(pts[static_cast<std::size_t>(i)]->median_bw());
    };
    Eigen::VectorXd th0(2);
    th0 << std::log(std::max(min_time / 4, 1e-6)), std::log(1.2 * max_bw);
    const fit::LmResult pipelined = fit::levenberg_marquardt(residuals, th0, n);
    Eigen::VectorXd r(n);
    residuals(pipelined.p, r);
    const double pipelined_cost = r.squaredNorm();
    serial = true;
    const fit::LmResult in_series = fit::levenberg_marquardt(residuals, th0, n);
    residuals(in_series.p, r);
    const double serial_cost = r.squaredNorm();
    serial = serial_cost < pipelined_cost;
    const fit::LmResult& lm = serial ? in_series : pipelined;
    prof.notes.push_back(fmt::format("drive writes: rms log residual {:.3f} with write processing beside the data "
                                     "path, {:.3f} in series; kept: {}",
                                     std::sqrt(pipelined_cost / n), std::sqrt(serial_cost / n),
                                     serial ? "in series" : "beside"));

    DriveWriteFit f;
    f.serial = serial;
    f.latency_s = std::exp(lm.p[0]);
    f.bandwidth_Bps = std::min(std::exp(lm.p[1]), bandwidth_cap);
    f.link_Bps = d.link_Bps;
    residuals(lm.p, r);
    f.q = stages::bandwidth_residuals(pts, r, 2, f.residuals);
    if (const Eigen::VectorXd se = fit::standard_errors(residuals, lm.p, n); se.size() == 2) {
      prof.relative_se["write_latency"] = se[0];
      prof.relative_se["write_bandwidth"] = se[1];
    }
    for (const PointGroup* g : pts) f.from.add(*g);
    prof.writes.drive = f;
    if (!prof.writes.flush)
      prof.notes.push_back("drive writes: fitted with a flush_cost of 0 (no flush fit)");
  }
};

}  // namespace

namespace stages {
std::unique_ptr<WriteStage> flush_stage() { return std::make_unique<FlushStage>(); }
std::unique_ptr<WriteStage> drive_write_stage() { return std::make_unique<DriveWriteStage>(); }
}  // namespace stages

const std::vector<std::unique_ptr<WriteStage>>& write_stages() {
  static const std::vector<std::unique_ptr<WriteStage>> all = [] {
    std::vector<std::unique_ptr<WriteStage>> v;
    v.push_back(stages::flush_stage());
    v.push_back(stages::drive_write_stage());
    v.push_back(stages::buffered_write_stage());
    v.push_back(stages::io_wq_stage());
    v.push_back(stages::writeback_stage());
    return v;
  }();
  return all;
}

void fit_writes(const std::vector<PointGroup>& groups, const Subset& subset, Profile& prof) {
  std::vector<const PointGroup*> writes;
  for (const PointGroup& g : groups)
    if (g.writes() && subset.contains(g)) writes.push_back(&g);
  if (writes.empty()) return;  // a read calibration: no write fit, no note
  for (const auto& stage : write_stages()) {
    std::vector<const PointGroup*> taken;
    for (const PointGroup* g : writes)
      if (stage->takes(*g)) taken.push_back(g);
    stage->fit(taken, prof);
  }
}

}  // namespace iowall::calib
