// `iowall calibrate`'s fits, stage by stage (measure/calibrate.hpp): the CPU cost per
// I/O, the storage (measure/calibrate_storage.cpp), the page-cache memcpy, the host-to-
// device copy and cuFile's compatibility-mode overhead.
#include "measure/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "measure/calibrate_stages.hpp"
#include "measure/calibrate_writes.hpp"
#include "sim/core/error.hpp"

namespace iowall::calib {

void Sources::add(const PointGroup& g) {
  points.push_back(g.key());
  for (const std::string& f : g.files)
    if (std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
}

namespace stages {
double round_sig(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
  return std::round(v * scale) / scale;
}

std::optional<SizeLine> fit_size_line(const std::vector<std::pair<double, double>>& size_time) {
  std::map<double, int> sizes;
  for (const auto& [s, t] : size_time) ++sizes[s];
  if (sizes.size() < 2) return std::nullopt;
  Eigen::MatrixXd x(size_time.size(), 2);
  Eigen::VectorXd y(size_time.size()), w(size_time.size());
  for (std::size_t i = 0; i < size_time.size(); ++i) {
    x(i, 0) = 1;
    x(i, 1) = size_time[i].first;
    y[i] = size_time[i].second;
    w[i] = 1.0 / std::max(std::fabs(size_time[i].second), 1e-9);  // relative errors: small and large I/Os alike
  }
  fit::LinearResult r = fit::linear(x, y, w);
  SizeLine line;
  double per_byte = r.beta[1];
  if (r.beta[0] < 0) {
    // A fixed cost is a time, never negative: where the free line's intercept falls below
    // zero (noise on a cost near none), the least-squares line with it held at zero is the
    // one through the origin.
    r = fit::linear(x.rightCols(1), y, w);
    per_byte = r.beta[0];
  } else {
    line.fixed_s = r.beta[0];
  }
  // A per-byte cost counts only if the line explains most of the spread of the times.
  line.bandwidth_identified = per_byte > 0 && r.q.r2 >= 0.5;
  line.bandwidth_Bps = line.bandwidth_identified ? 1.0 / per_byte : 0;
  line.q = r.q;
  return line;
}
}  // namespace stages

namespace {

using stages::fit_size_line;
using stages::time_per_io;

// The reads of `xfer` the subset selects (the write stages pick their own points).
std::vector<const PointGroup*> select(const std::vector<PointGroup>& groups, const Subset& subset, const char* xfer) {
  std::vector<const PointGroup*> out;
  for (const PointGroup& g : groups)
    if (g.xfer == xfer && !g.writes() && subset.contains(g)) out.push_back(&g);
  return out;
}

CpuCost fit_cpu(const std::vector<const PointGroup*>& pts, fit::Quality& q) {
  // Only the terms that the points can tell apart: a size term needs two sizes, a
  // per-call term two queue depths. A cost cannot be negative: a term whose coefficient
  // comes out below zero is dropped and the rest refitted.
  std::map<i64, int> sizes;
  std::map<int, int> qds;
  for (const PointGroup* g : pts) ++sizes[g->io_size], ++qds[g->qd];
  std::vector<int> terms{0};  // 0: per I/O, 1: per byte, 2: per call
  if (sizes.size() >= 2) terms.push_back(1);
  if (qds.size() >= 2) terms.push_back(2);
  Eigen::VectorXd y(pts.size()), w(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) {
    y[i] = pts[i]->median_cpu_s_per_io();
    w[i] = 1.0 / std::max(y[i], 1e-9);  // relative errors: 4 KiB and 4 MiB I/Os alike
  }
  while (true) {
    Eigen::MatrixXd x(pts.size(), terms.size());
    for (std::size_t i = 0; i < pts.size(); ++i)
      for (std::size_t c = 0; c < terms.size(); ++c)
        x(i, c) = terms[c] == 0 ? 1.0 : terms[c] == 1 ? static_cast<double>(pts[i]->io_size) : 1.0 / pts[i]->qd;
    const fit::LinearResult r = fit::linear(x, y, w);
    Eigen::Index worst = 0;
    if (terms.size() > 1 && r.beta.minCoeff(&worst) < 0) {
      terms.erase(terms.begin() + worst);
      continue;
    }
    q = r.q;
    double cost[3] = {0, 0, 0};
    for (std::size_t c = 0; c < terms.size(); ++c) cost[terms[c]] = std::max(0.0, r.beta[c]);
    return {cost[0], cost[1], cost[2]};
  }
}


// Per-I/O time differences between two transfer types at the same size, threads, QD1.
std::vector<std::pair<double, double>> differences(const std::vector<const PointGroup*>& a,
                                                   const std::vector<const PointGroup*>& b) {
  std::vector<std::pair<double, double>> out;
  for (const PointGroup* ga : a) {
    if (ga->qd != 1) continue;
    for (const PointGroup* gb : b)
      if (gb->qd == 1 && gb->io_size == ga->io_size && gb->threads == ga->threads)
        out.emplace_back(static_cast<double>(ga->io_size), time_per_io(*ga) - time_per_io(*gb));
  }
  return out;
}

// The points the subset selects, by key; InputError when it selects none.
Profile with_fitted_points(const std::vector<PointGroup>& groups, const Subset& subset) {
  Profile prof;
  prof.subset = subset.spec();
  for (const PointGroup& g : groups)
    if (subset.contains(g)) prof.fitted_points.push_back(g.key());
  if (prof.fitted_points.empty()) throw InputError("", "--fit-subset", "selects none of the measured points");
  return prof;
}

// memcpy: buffered reads at QD1, time per I/O = fixed + size / memcpy bandwidth.
void fit_memcpy(const std::vector<const PointGroup*>& cached, Profile& prof) {
  if (!cached.empty()) {
    std::vector<std::pair<double, double>> st;
    for (const PointGroup* g : cached)
      if (g->qd == 1) st.emplace_back(static_cast<double>(g->io_size), time_per_io(*g));
    prof.memcpy = fit_size_line(st);
  }
  if (!prof.memcpy) prof.notes.push_back("memcpy: needs cpu_cached points at QD1 of two or more I/O sizes");
}

// h2d_copy: what cpu_gpu takes beyond cpu_only per I/O at QD1, a launch cost + size / bandwidth.
void fit_h2d(const std::vector<const PointGroup*>& gpu, const std::vector<const PointGroup*>& only, Profile& prof) {
  if (!gpu.empty()) prof.h2d = fit_size_line(differences(gpu, only));
  if (!prof.h2d)
    prof.notes.push_back("h2d_copy: needs cpu_gpu and cpu_only points at QD1 of two or more I/O sizes");
  else if (!prof.h2d->bandwidth_identified)
    prof.notes.push_back(fmt::format("h2d_copy: the extra time of cpu_gpu over cpu_only does not grow with size "
                                     "(R2 {:.2f}): the copy hides behind the read, or storage noise drowns it",
                                     prof.h2d->q.r2));
}

// cufile_compat: what gpu_direct (compatibility mode) takes beyond cpu_gpu per I/O at QD1.
void fit_cufile(const std::vector<const PointGroup*>& direct, const std::vector<const PointGroup*>& gpu,
                Profile& prof) {
  if (!direct.empty()) prof.cufile = fit_size_line(differences(direct, gpu));
  if (!prof.cufile) prof.notes.push_back("cufile_compat: needs gpu_direct and cpu_gpu points at QD1 of two or more sizes");
}

}  // namespace

Profile calibrate(const std::vector<PointGroup>& groups, const Subset& subset) {
  Profile prof = with_fitted_points(groups, subset);
  const auto only = select(groups, subset, "cpu_only");
  const auto cached = select(groups, subset, "cpu_cached");
  const auto gpu = select(groups, subset, "cpu_gpu");
  const auto direct = select(groups, subset, "gpu_direct");
  if (!only.empty()) {
    prof.cpu = fit_cpu(only, prof.cpu_q);
    double direct_write_Bps = 0;
    for (const PointGroup& g : groups)
      if (g.writes() && drive_write_point(g) && subset.contains(g))
        direct_write_Bps = std::max(direct_write_Bps, g.median_bw());
    stages::fit_storage(only, prof, direct_write_Bps);
  } else {
    prof.notes.push_back("storage, cpu: no cpu_only points in the subset");
  }
  fit_memcpy(cached, prof);
  fit_h2d(gpu, only, prof);
  fit_cufile(direct, gpu, prof);
  fit_writes(groups, subset, prof);
  return prof;
}

}  // namespace iowall::calib
