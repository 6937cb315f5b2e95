// The storage stage of `iowall calibrate`: the drive's read latency L, bandwidth B and
// command rate I fitted to cpu_only throughput over I/O size and concurrency
// (Levenberg-Marquardt on log throughput), once for each read service's closed-form
// ceiling (models/ssd/read_service.hpp: the same formula the service documents), keeping
// the service that fits best; then whether any point reaches the command-rate ceiling,
// and the residual of every point.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "measure/calibrate_stages.hpp"
#include "models/ssd/read_service.hpp"

namespace iowall::calib {

double storage_throughput(const StorageParams& p, double s, int n, double cpu) {
  ReadCeilingInputs d{p.max_iops, p.bandwidth_Bps, p.latency_s, p.mdts_bytes, cpu};
  if (p.copy_cache_bytes > 0 && p.cold_copy_Bps > 0)
    d.cold_s_per_byte = cold_copy_share(n * s, p.copy_cache_bytes) / p.cold_copy_Bps;
  return read_ceiling(read_service_name(p.read)).ceiling(d, s, n);
}

namespace stages {
namespace {

// Latency spread: a lognormal's sigma from the p90/p50 ratio of the one-thread QD1 latencies.
double latency_sigma(const std::vector<const PointGroup*>& only) {
  std::vector<double> sigmas;
  for (const PointGroup* g : only)
    if (g->qd == 1 && g->threads == 1 && g->median_p50_ns() > 0)
      sigmas.push_back(std::log(g->median_p90_ns() / g->median_p50_ns()) / 1.2816);
  return std::max(0.0, median(sigmas));
}

// The storage model over the cpu_only points: parameters th = (log L, log B[, log I[, log
// cold_copy]]) in log space (positive, and residuals in log throughput are relative); the
// last one where `copy_cache` (bytes) is given: a virtual disk's reads slow where the
// points' buffers outgrow it.
class StorageModel {
public:
  StorageModel(const std::vector<const PointGroup*>& only, const CpuCost& cpu, double mdts, double cache = 0)
      : mdts_bytes(mdts), copy_cache(cache), only_(only), cpu_(cpu) {
    for (const PointGroup* g : only) {
      max_bw = std::max(max_bw, g->median_bw());
      max_iops = std::max(max_iops, g->median_iops());
      if (g->concurrency() == 1) min_lat = std::min(min_lat, time_per_io(*g));
      // With one I/O in flight everywhere, 1/max_iops and the latency add up alike and
      // cannot be told apart: the ceiling is then left out of the fit.
      concurrent |= g->concurrency() > 1;
    }
    iops_cap = 100 * max_iops;  // the fit may not wander off to infinity
  }
  int points() const { return static_cast<int>(only_.size()); }
  StorageParams params(const Eigen::VectorXd& th, ReadForm form) const {
    StorageParams p;
    p.read = form;
    p.mdts_bytes = mdts_bytes;
    p.latency_s = std::exp(th[0]);
    p.bandwidth_Bps = std::exp(th[1]);
    p.max_iops = th.size() > 2 ? std::min(std::exp(th[2]), iops_cap) : iops_cap;
    if (copy_cache > 0) {
      p.copy_cache_bytes = copy_cache;
      p.cold_copy_Bps = std::exp(th[th.size() - 1]);
    }
    return p;
  }
  // Log throughput of `p` minus the measured one, per point.
  void residuals(const StorageParams& p, Eigen::VectorXd& r) const {
    for (int i = 0; i < points(); ++i) {
      const PointGroup& g = *only_[i];
      const double size = static_cast<double>(g.io_size);
      r[i] = std::log(storage_throughput(p, size, g.concurrency(), cpu_.at(g.qd, size))) - std::log(g.median_bw());
    }
  }
  // Where the fit starts: half the fastest lone request, a little above the highest
  // bandwidth and IOPS measured.
  Eigen::VectorXd start() const {
    Eigen::VectorXd th0((concurrent ? 3 : 2) + (copy_cache > 0 ? 1 : 0));
    th0[0] = std::log(std::max(min_lat / 2, 1e-6));
    th0[1] = std::log(1.2 * max_bw);
    if (concurrent) th0[2] = std::log(1.2 * max_iops);
    if (copy_cache > 0) th0[th0.size() - 1] = std::log(4 * max_bw);  // a cold byte a quarter again
    return th0;
  }

  double max_bw = 0, max_iops = 0, min_lat = 1, iops_cap = 0;
  double mdts_bytes;  // the largest command the device sees
  double copy_cache;  // bytes; 0: no cold-copy term
  bool concurrent = false;

private:
  const std::vector<const PointGroup*>& only_;
  CpuCost cpu_;
};

// Three ceilings with as many parameters: command processing beside the data path, in
// series with it, or in series and served in batches. The one that fits best is kept
// (beside, unless several I/Os were ever in flight: only then do they differ); its
// parameters come back with the ceiling's (log I) appended when it was left out.
struct FormFit {
  ReadForm read;
  const char* name;
  fit::LmResult lm;
  double cost = 0;
  double ceiling_Bps = 0;  // the fitted read bandwidth
};
struct Kept {
  ReadForm read;
  Eigen::VectorXd th;
};
Kept fit_read_forms(const StorageModel& m, Profile& prof, double direct_write_Bps) {
  const int n = m.points();
  std::array<FormFit, 3> forms{{{ReadForm::overlapped, "beside", {}},
                                {ReadForm::serial, "in series", {}},
                                {ReadForm::batched, "in series and batched", {}}}};
  const Eigen::VectorXd th0 = m.start();
  Eigen::VectorXd r(n);
  for (FormFit& f : forms) {
    auto residuals = [&](const Eigen::VectorXd& th, Eigen::VectorXd& out) { m.residuals(m.params(th, f.read), out); };
    f.lm = fit::levenberg_marquardt(residuals, th0, n);
    residuals(f.lm.p, r);
    f.cost = r.squaredNorm();
    f.ceiling_Bps = m.params(f.lm.p, f.read).bandwidth_Bps;
  }
  // A service other than batched puts the fitted read ceiling on the drive's link
  // (calibrate_topology.cpp), which O_DIRECT writes cross too: one below a write rate
  // measured in the same subset contradicts that measurement and is not kept.
  auto consistent = [&](const FormFit& f) {
    return f.read == ReadForm::batched || f.ceiling_Bps >= direct_write_Bps;
  };
  const FormFit* best = &forms[0];
  if (m.concurrent) {
    best = nullptr;
    for (const FormFit& f : forms)
      if (consistent(f) && (!best || f.cost < best->cost)) best = &f;
  } else if (!consistent(*best)) {
    best = &forms[2];  // the forms differ only with several I/Os in flight: the one without the link
  }
  if (direct_write_Bps > 0) {
    for (const FormFit& f : forms)
      if (!consistent(f))
        prof.notes.push_back(fmt::format("storage: reads {} would put a {} ceiling on the drive's link, below the "
                                         "O_DIRECT writes measured ({}): not kept",
                                         f.name, bandwidth_text(f.ceiling_Bps),
                                         bandwidth_text(direct_write_Bps)));
  }
  prof.notes.push_back(fmt::format("storage: rms log residual {:.3f} with reads beside command processing, {:.3f} in "
                                   "series, {:.3f} in series and batched; kept: {}",
                                   std::sqrt(forms[0].cost / n), std::sqrt(forms[1].cost / n),
                                   std::sqrt(forms[2].cost / n), best->name));
  if (m.concurrent) return {best->read, best->lm.p};
  Eigen::VectorXd th(3);
  th << best->lm.p[0], best->lm.p[1], std::log(m.iops_cap);
  return {best->read, th};
}

// Whether the command-rate ceiling matters to any point: the fit against the same fit
// without a ceiling at all.
bool reaches_iops_ceiling(const StorageModel& m, const StorageParams& p, const Eigen::VectorXd& r_fit) {
  StorageParams free_iops = p;
  free_iops.max_iops = 1e12;
  Eigen::VectorXd r_free(m.points());
  m.residuals(free_iops, r_free);
  return m.concurrent && r_free.squaredNorm() > r_fit.squaredNorm() * 1.05 + 1e-9;
}

}  // namespace

// The largest command the device sees: the block layer splits an I/O into requests of
// at most the queue's max_sectors_kb (on an NVMe drive no more than its MDTS), and the
// device serves each request whole (a virtio disk: one request, however large). The
// value most runs recorded; the drive's default where none did.
double request_limit(const std::vector<const PointGroup*>& only, Profile& prof) {
  std::map<i64, int> seen;
  for (const PointGroup* g : only)
    if (g->max_request_bytes && *g->max_request_bytes > 0) ++seen[*g->max_request_bytes];
  if (seen.empty()) return StorageParams{}.mdts_bytes;
  if (seen.size() > 1) prof.notes.push_back("storage: the runs' max_sectors_kb differ; the most common is kept as mdts");
  return static_cast<double>(
      std::max_element(seen.begin(), seen.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
          ->first);
}

// A virtual disk's copy cache (virtio_blk copy_cache): the cache size, from a grid of 1 to
// 32 MiB (whole MiB to 8, then steps of a quarter to a half octave), whose fit with a
// cold-copy rate has the least residual;
// 0 where no size leaves at least two points' buffers beyond it and three within, or where
// the best is not worth its parameters (a physical drive: nothing to explain).
double fit_copy_cache(const std::vector<const PointGroup*>& only, const CpuCost& cpu, double mdts,
                      double direct_write_Bps, Profile& prof) {
  struct Trial {
    double cost;
    StorageParams p;
  };
  auto trial = [&](const StorageModel& m) {
    Profile scratch;
    const Kept k = fit_read_forms(m, scratch, direct_write_Bps);
    Eigen::VectorXd r(m.points());
    const StorageParams p = m.params(k.th, k.read);
    m.residuals(p, r);
    return Trial{r.squaredNorm(), p};
  };
  const StorageModel plain(only, cpu, mdts);
  if (!plain.concurrent) return 0;
  const double base = trial(plain).cost;
  std::optional<Trial> best;
  for (const int mib : {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32}) {
    const double cache = mib * 1048576.0;
    int beyond = 0, within = 0;
    for (const PointGroup* g : only) (g->concurrency() * static_cast<double>(g->io_size) > cache ? beyond : within)++;
    if (beyond < 2 || within < 3) continue;
    const Trial t = trial(StorageModel(only, cpu, mdts, cache));
    if (!best || t.cost < best->cost) best = t;
  }
  // Kept where it earns its place by the Bayesian information criterion, counting the
  // cache size chosen from the grid as a second parameter (n ln(base / cost) > 2 ln n), and
  // where memory beyond the cache slows a read by a tenth or more: less is not told from
  // the rounds' spread (a fit of noise on two points).
  const double n = plain.points();
  if (!best || !(n * std::log(base / best->cost) > 2 * std::log(n)) ||
      best->p.bandwidth_Bps / best->p.cold_copy_Bps < 0.1)
    return 0;
  prof.notes.push_back(fmt::format("storage: reads slow where the points' buffers outgrow {} (a virtual disk's copy "
                                   "cache): rms log residual {:.3f} with it, {:.3f} without",
                                   to_string(Bytes(static_cast<i64>(best->p.copy_cache_bytes))),
                                   std::sqrt(best->cost / n), std::sqrt(base / n)));
  return best->p.copy_cache_bytes;
}

void fit_storage(const std::vector<const PointGroup*>& only, Profile& prof, double direct_write_Bps) {
  prof.latency_sigma = latency_sigma(only);
  const double mdts = request_limit(only, prof);
  const StorageModel m(only, *prof.cpu, mdts, fit_copy_cache(only, *prof.cpu, mdts, direct_write_Bps, prof));
  const Kept kept = fit_read_forms(m, prof, direct_write_Bps);
  StorageParams p = m.params(kept.th, kept.read);
  Eigen::VectorXd r_fit(m.points());
  m.residuals(p, r_fit);
  prof.iops_constrained = reaches_iops_ceiling(m, p, r_fit);
  if (!prof.iops_constrained) {
    p.max_iops = m.iops_cap;
    prof.notes.push_back(fmt::format("storage: no fitted point reaches the command-rate ceiling; max_iops set to 100x "
                                     "the highest measured IOPS ({})",
                                     rate_text(m.max_iops)));
  }
  prof.storage = p;
  prof.storage_q = bandwidth_residuals(only, r_fit, m.copy_cache > 0 ? 4 : 3, prof.residuals);
  // The parameters' standard errors, over the parameters the kept form fitted (log space:
  // relative errors); the ceiling's only where some point reaches it.
  const Eigen::VectorXd fitted = m.concurrent ? kept.th : kept.th.head(2);
  const Eigen::VectorXd se = fit::standard_errors(
      [&](const Eigen::VectorXd& th, Eigen::VectorXd& out) { m.residuals(m.params(th, kept.read), out); }, fitted,
      m.points());
  if (se.size() >= 2) {
    prof.relative_se["read_latency"] = se[0];
    prof.relative_se["read_bandwidth"] = se[1];
    if (se.size() > 2 && prof.iops_constrained) prof.relative_se["max_iops"] = se[2];
    if (m.copy_cache > 0 && se.size() > 3) prof.relative_se["cold_copy_bandwidth"] = se[3];
  }
}

fit::Quality bandwidth_residuals(const std::vector<const PointGroup*>& pts, const Eigen::VectorXd& r, int parameters,
                                 nlohmann::json& out) {
  const int n = static_cast<int>(pts.size());
  Eigen::VectorXd observed(n), fitted(n);
  for (int i = 0; i < n; ++i) {
    const PointGroup& g = *pts[static_cast<std::size_t>(i)];
    observed[i] = std::log(g.median_bw());
    fitted[i] = observed[i] + r[i];
    out.push_back({{"point", g.key()},
                   {"measured", bandwidth_text(g.median_bw())},
                   {"fitted", bandwidth_text(std::exp(fitted[i]))},
                   {"error", round_sig(std::exp(r[i]) - 1, 3)}});
  }
  return fit::quality(observed, fitted, parameters);
}

}  // namespace stages
}  // namespace iowall::calib
