#include "measure/calibrate.hpp"
#include "sim/config/json_file.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace iowall::calib {
namespace {

using nlohmann::json;

double round_sig(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
  return std::round(v * scale) / scale;
}

std::vector<const PointGroup*> select(const std::vector<PointGroup>& groups, const Subset& subset, const char* xfer) {
  std::vector<const PointGroup*> out;
  for (const PointGroup& g : groups)
    if (g.xfer == xfer && subset.contains(g)) out.push_back(&g);
  return out;
}

// Seconds each thread spends per I/O at QD1: threads / IOPS.
double time_per_io(const PointGroup& g) { return g.threads / g.median_iops(); }

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
  const fit::LinearResult r = fit::linear(x, y, w);
  SizeLine line;
  line.fixed_s = r.beta[0];
  // A per-byte cost counts only if the line explains most of the spread of the times.
  line.bandwidth_identified = r.beta[1] > 0 && r.q.r2 >= 0.5;
  line.bandwidth_Bps = line.bandwidth_identified ? 1.0 / r.beta[1] : 0;
  line.q = r.q;
  return line;
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

json line_json(const SizeLine& l, const char* per_io_name, const char* bw_name) {
  json j = {{per_io_name, time_text(l.fixed_s)},
            {"r2", round_sig(l.q.r2, 4)},
            {"rms_residual", time_text(l.q.rms_residual)},
            {"points", l.q.points}};
  if (l.bandwidth_identified) j[bw_name] = bandwidth_text(l.bandwidth_Bps);
  else j[bw_name] = nullptr;
  return j;
}

}  // namespace

namespace {

// The largest unit that leaves a value of at least 1, four significant digits: text
// that the unit parsers read back.
std::string unit_text(double v, std::initializer_list<std::pair<const char*, double>> units) {
  for (const auto& [name, scale] : units)
    if (std::fabs(v) >= scale) return fmt::format("{:.4g} {}", v / scale, name);
  return fmt::format("{:.4g} {}", v / std::prev(units.end())->second, std::prev(units.end())->first);
}

}  // namespace

std::string time_text(double s) {
  if (std::fabs(s) < 1e-12) return "0 ns";
  return unit_text(s, {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}});
}
std::string bandwidth_text(double bps) {
  if (bps == 0) return "0 B/s";
  return unit_text(bps, {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"kB/s", 1e3}, {"B/s", 1}});
}
std::string rate_text(double per_s) { return unit_text(per_s, {{"M/s", 1e6}, {"K/s", 1e3}, {"/s", 1}}); }

double storage_throughput(const StorageParams& p, double s, int n, double cpu) {
  const double commands = std::ceil(s / p.mdts_bytes);
  const double alone = cpu + 1.0 / p.max_iops + p.latency_s + s / p.bandwidth_Bps;
  if (p.read == ReadForm::batched) return n * s / (cpu + p.latency_s + n * (commands / p.max_iops + s / p.bandwidth_Bps));
  if (p.read == ReadForm::serial) return std::min(n * s / alone, s / (commands / p.max_iops + s / p.bandwidth_Bps));
  return std::min({n * s / alone, p.bandwidth_Bps, p.max_iops * s / commands});
}

Profile calibrate(const std::vector<PointGroup>& groups, const Subset& subset) {
  Profile prof;
  prof.subset = subset.spec();
  for (const PointGroup& g : groups)
    if (subset.contains(g)) prof.fitted_points.push_back(g.key());
  if (prof.fitted_points.empty()) throw InputError("", "--fit-subset", "selects none of the measured points");

  const auto only = select(groups, subset, "cpu_only");
  const auto cached = select(groups, subset, "cpu_cached");
  const auto gpu = select(groups, subset, "cpu_gpu");
  const auto direct = select(groups, subset, "gpu_direct");

  if (!only.empty()) {
    prof.cpu = fit_cpu(only, prof.cpu_q);
    // Latency spread: a lognormal's sigma from the p90/p50 ratio of the QD1 latencies.
    std::vector<double> sigmas;
    for (const PointGroup* g : only)
      if (g->qd == 1 && g->threads == 1 && g->median_p50_ns() > 0)
        sigmas.push_back(std::log(g->median_p90_ns() / g->median_p50_ns()) / 1.2816);
    prof.latency_sigma = std::max(0.0, median(sigmas));

    // Storage: L, B, I in log space (positive, and residuals in log throughput are relative).
    double max_bw = 0, max_iops = 0, min_lat = 1;
    for (const PointGroup* g : only) {
      max_bw = std::max(max_bw, g->median_bw());
      max_iops = std::max(max_iops, g->median_iops());
      if (g->concurrency() == 1) min_lat = std::min(min_lat, time_per_io(*g));
    }
    const CpuCost cpu = *prof.cpu;
    const double iops_cap = 100 * max_iops;  // the fit may not wander off to infinity
    ReadForm form = ReadForm::overlapped;  // which ceiling the fit is trying (all are fitted below)
    auto params = [&](const Eigen::VectorXd& th) {
      StorageParams p;
      p.read = form;
      p.latency_s = std::exp(th[0]);
      p.bandwidth_Bps = std::exp(th[1]);
      p.max_iops = th.size() > 2 ? std::min(std::exp(th[2]), iops_cap) : iops_cap;
      return p;
    };
    const int n = static_cast<int>(only.size());
    auto residuals = [&](const Eigen::VectorXd& th, Eigen::VectorXd& r) {
      const StorageParams p = params(th);
      for (int i = 0; i < n; ++i) {
        const PointGroup& g = *only[i];
        r[i] = std::log(storage_throughput(p, static_cast<double>(g.io_size), g.concurrency(), cpu.at(g.qd, static_cast<double>(g.io_size)))) -
               std::log(g.median_bw());
      }
    };
    // With one I/O in flight everywhere, 1/max_iops and the latency add up alike and
    // cannot be told apart: the ceiling is then left out of the fit.
    bool concurrent = false;
    for (const PointGroup* g : only) concurrent |= g->concurrency() > 1;
    Eigen::VectorXd th0(concurrent ? 3 : 2);
    th0[0] = std::log(std::max(min_lat / 2, 1e-6));
    th0[1] = std::log(1.2 * max_bw);
    if (concurrent) th0[2] = std::log(1.2 * max_iops);
    // Three ceilings with as many parameters: command processing beside the data path, in
    // series with it, or in series and served in batches. The one that fits best is kept
    // (beside, unless several I/Os were ever in flight: only then do they differ).
    struct Form {
      ReadForm read;
      const char* name;
      fit::LmResult lm;
      double cost = 0;
    };
    std::array<Form, 3> forms{{{ReadForm::overlapped, "beside", {}},
                               {ReadForm::serial, "in series", {}},
                               {ReadForm::batched, "in series and batched", {}}}};
    Eigen::VectorXd r(n);
    for (Form& f : forms) {
      form = f.read;
      f.lm = fit::levenberg_marquardt(residuals, th0, n);
      residuals(f.lm.p, r);
      f.cost = r.squaredNorm();
    }
    const Form* best = &forms[0];
    if (concurrent)
      for (const Form& f : forms)
        if (f.cost < best->cost) best = &f;
    form = best->read;
    prof.notes.push_back(fmt::format("storage: rms log residual {:.3f} with reads beside command processing, {:.3f} in "
                                     "series, {:.3f} in series and batched; kept: {}",
                                     std::sqrt(forms[0].cost / n), std::sqrt(forms[1].cost / n),
                                     std::sqrt(forms[2].cost / n), best->name));
    const fit::LmResult lm2 = best->lm;
    fit::LmResult lm = lm2;
    if (!concurrent) {
      lm.p.resize(3);
      lm.p << lm2.p[0], lm2.p[1], std::log(iops_cap);
    }
    StorageParams p = params(lm.p);
    // Does the ceiling matter to any point? Compare with no ceiling at all.
    StorageParams free_iops = p;
    free_iops.max_iops = 1e12;
    Eigen::VectorXd r_fit(n), r_free(n);
    residuals(lm.p, r_fit);
    for (int i = 0; i < n; ++i) {
      const PointGroup& g = *only[i];
      r_free[i] = std::log(storage_throughput(free_iops, static_cast<double>(g.io_size), g.concurrency(), cpu.at(g.qd, static_cast<double>(g.io_size)))) -
                  std::log(g.median_bw());
    }
    prof.iops_constrained = concurrent && r_free.squaredNorm() > r_fit.squaredNorm() * 1.05 + 1e-9;
    if (!prof.iops_constrained) {
      p.max_iops = iops_cap;
      prof.notes.push_back(fmt::format("storage: no fitted point reaches the command-rate ceiling; max_iops set to 100x "
                                       "the highest measured IOPS ({})",
                                       rate_text(max_iops)));
    }
    prof.storage = p;
    Eigen::VectorXd observed(n), fitted(n);
    for (int i = 0; i < n; ++i) {
      const PointGroup& g = *only[i];
      observed[i] = std::log(g.median_bw());
      fitted[i] = observed[i] + r_fit[i];
      prof.residuals.push_back({{"point", g.key()},
                                {"measured", bandwidth_text(g.median_bw())},
                                {"fitted", bandwidth_text(std::exp(fitted[i]))},
                                {"error", round_sig(std::exp(r_fit[i]) - 1, 3)}});
    }
    prof.storage_q = fit::quality(observed, fitted, 3);
  } else {
    prof.notes.push_back("storage, cpu: no cpu_only points in the subset");
  }

  if (!cached.empty()) {
    std::vector<std::pair<double, double>> st;
    for (const PointGroup* g : cached)
      if (g->qd == 1) st.emplace_back(static_cast<double>(g->io_size), time_per_io(*g));
    prof.memcpy = fit_size_line(st);
  }
  if (!prof.memcpy) prof.notes.push_back("memcpy: needs cpu_cached points at QD1 of two or more I/O sizes");

  if (!gpu.empty()) prof.h2d = fit_size_line(differences(gpu, only));
  if (!prof.h2d) prof.notes.push_back("h2d_copy: needs cpu_gpu and cpu_only points at QD1 of two or more I/O sizes");
  else if (!prof.h2d->bandwidth_identified)
    prof.notes.push_back(fmt::format("h2d_copy: the extra time of cpu_gpu over cpu_only does not grow with size "
                                     "(R2 {:.2f}): the copy hides behind the read, or storage noise drowns it",
                                     prof.h2d->q.r2));

  if (!direct.empty()) prof.cufile = fit_size_line(differences(direct, gpu));
  if (!prof.cufile) prof.notes.push_back("cufile_compat: needs gpu_direct and cpu_gpu points at QD1 of two or more sizes");
  return prof;
}

json profile_to_json(const Profile& p) {
  json fits = json::object();
  if (p.storage) {
    fits["storage"] = {
        {"model", p.storage->read == ReadForm::batched
                      ? "throughput = concurrency * size / (cpu + read_latency + concurrency * (commands/max_iops + "
                        "size/read_bandwidth)): one wake-up per batch of the I/Os in flight; fitted on log throughput"
                  : p.storage->read == ReadForm::serial
                      ? "throughput = min(concurrency * size / (cpu + 1/max_iops + read_latency + size/read_bandwidth), "
                        "size / (commands/max_iops + size/read_bandwidth)); fitted on log throughput"
                      : "throughput = min(concurrency * size / (cpu + 1/max_iops + read_latency + size/read_bandwidth), "
                        "read_bandwidth, max_iops * size / commands); fitted on log throughput"},
        {"read_service", read_service_name(p.storage->read)},
        {"read_latency", time_text(p.storage->latency_s)},
        {"read_bandwidth", bandwidth_text(p.storage->bandwidth_Bps)},
        {"max_iops", rate_text(p.storage->max_iops)},
        {"max_iops_constrained", p.iops_constrained},
        {"mdts", to_string(Bytes(static_cast<i64>(p.storage->mdts_bytes)))},
        {"latency_sigma", round_sig(p.latency_sigma, 3)},
        {"r2", round_sig(p.storage_q.r2, 4)},
        {"rms_log_residual", round_sig(p.storage_q.rms_residual, 3)},
        {"points", p.storage_q.points},
        {"residuals", p.residuals}};
  }
  if (p.cpu)
    fits["cpu"] = {{"model", "CPU time per I/O = per_io + per_MiB * size / MiB + per_call / qd"},
                   {"per_io", time_text(p.cpu->per_io_s)},
                   {"per_MiB", time_text(p.cpu->per_byte_s * 1048576)},
                   {"per_call", time_text(p.cpu->per_call_s)},
                   {"r2", round_sig(p.cpu_q.r2, 4)},
                   {"points", p.cpu_q.points}};
  if (p.memcpy) fits["memcpy"] = line_json(*p.memcpy, "per_io", "memcpy_per_core");
  if (p.h2d) fits["h2d_copy"] = line_json(*p.h2d, "launch_cost", "copy_bandwidth");
  if (p.cufile) fits["cufile_compat"] = line_json(*p.cufile, "per_io_overhead", "extra_copy_bandwidth");
  return {{"profile", p.name},
          {"iowall_version", "0.1.0"},
          {"machine", p.machine},
          {"topology", p.topology},
          {"fit_subset", p.subset},
          {"measurements", p.files},
          {"fitted_points", p.fitted_points},
          {"fits", fits},
          {"notes", p.notes}};
}

namespace {

struct ProfileReader {
  const json& j;
  const std::string& path;
  const json& at(const std::string& ptr) const {
    const json::json_pointer p(ptr);
    if (!j.contains(p)) throw InputError(path, ptr, "missing");
    return j.at(p);
  }
  std::string text(const std::string& ptr) const {
    const json& v = at(ptr);
    if (!v.is_string()) throw InputError(path, ptr, "expected a unit string");
    return v.get<std::string>();
  }
  double seconds(const std::string& ptr) const {
    Time t;
    const ParseResult r = parse_time(text(ptr), t);
    if (!r.ok) throw InputError(path, ptr, r.error);
    return static_cast<double>(t.ps) / 1e12;
  }
  double bytes_per_s(const std::string& ptr) const {
    Bandwidth b;
    const ParseResult r = parse_bandwidth(text(ptr), b);
    if (!r.ok) throw InputError(path, ptr, r.error);
    return static_cast<double>(b.bps) / 8;
  }
  std::optional<SizeLine> line(const std::string& ptr, const char* fixed, const char* bw) const {
    if (!j.contains(json::json_pointer(ptr))) return std::nullopt;
    SizeLine l;
    l.fixed_s = seconds(ptr + "/" + fixed);
    l.bandwidth_identified = !at(ptr + "/" + bw).is_null();
    if (l.bandwidth_identified) l.bandwidth_Bps = bytes_per_s(ptr + "/" + bw);
    return l;
  }
};

}  // namespace

Profile profile_from_json(const json& j, const std::string& path) {
  if (!j.is_object() || !j.contains("profile") || !j.contains("fits"))
    throw InputError(path, "", "is not a profile of `iowall calibrate` (no profile and fits)");
  if (!j["fits"].is_object()) throw InputError(path, "/fits", "not an object of fits");
  for (const char* k : {"profile", "machine", "topology", "fit_subset", "iowall_version"})
    if (j.contains(k) && !j[k].is_string()) throw InputError(path, std::string("/") + k, "not a string");
  const ProfileReader rd{j, path};
  Profile p;
  p.name = j.value("profile", "");
  p.machine = j.value("machine", "");
  p.topology = j.value("topology", "");
  p.subset = j.value("fit_subset", "all");
  if (j["fits"].contains("storage")) {
    StorageParams s;
    s.latency_s = rd.seconds("/fits/storage/read_latency");
    s.bandwidth_Bps = rd.bytes_per_s("/fits/storage/read_bandwidth");
    Rate r;
    const ParseResult pr = parse_rate(rd.text("/fits/storage/max_iops"), r);
    if (!pr.ok) throw InputError(path, "/fits/storage/max_iops", pr.error);
    s.max_iops = r.per_s_value();
    if (!(s.max_iops > 0)) throw InputError(path, "/fits/storage/max_iops", "must be more than 0");
    if (!(s.bandwidth_Bps > 0)) throw InputError(path, "/fits/storage/read_bandwidth", "must be more than 0");
    const json& fitted = rd.at("/fits/storage");
    for (const char* old : {"serial_reads", "batched_reads"})
      if (fitted.contains(old))
        throw InputError(path, std::string("/fits/storage/") + old,
                         "a profile of an older iowall: \"read_service\" (\"overlapped\", \"serial\" or \"batched\") "
                         "replaced serial_reads and batched_reads; run `iowall calibrate` again or edit the profile");
    if (fitted.contains("read_service") && !fitted["read_service"].is_string())
      throw InputError(path, "/fits/storage/read_service", "not a string");
    s.read = read_form(fitted.value("read_service", read_service_name(ReadForm::overlapped)), path,
                       "/fits/storage/read_service");
    p.storage = s;
    if (!rd.at("/fits/storage/latency_sigma").is_number())
      throw InputError(path, "/fits/storage/latency_sigma", "not a number");
    if (!rd.at("/fits/storage/max_iops_constrained").is_boolean())
      throw InputError(path, "/fits/storage/max_iops_constrained", "not true or false");
    p.latency_sigma = rd.at("/fits/storage/latency_sigma").get<double>();
    p.iops_constrained = rd.at("/fits/storage/max_iops_constrained").get<bool>();
  }
  if (j["fits"].contains("cpu"))
    p.cpu = CpuCost{rd.seconds("/fits/cpu/per_io"), rd.seconds("/fits/cpu/per_MiB") / 1048576, rd.seconds("/fits/cpu/per_call")};
  p.memcpy = rd.line("/fits/memcpy", "per_io", "memcpy_per_core");
  p.h2d = rd.line("/fits/h2d_copy", "launch_cost", "copy_bandwidth");
  p.cufile = rd.line("/fits/cufile_compat", "per_io_overhead", "extra_copy_bandwidth");
  return p;
}

Profile read_profile(const std::string& path) {
  return profile_from_json(load_json(path).json, path);
}

}  // namespace iowall::calib
