#include "measure/validate_report.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/gnuplot.hpp"

namespace iowall::calib {
namespace {

std::string pct(double v) { return fmt::format("{:+.1f}%", 100 * v); }
std::string gbps(double v) { return fmt::format("{:.3f}", v / 1e9); }

std::string summary_line(const char* what, const ErrorSummary& s) {
  if (s.points == 0) return fmt::format("{}: no simulated points", what);
  return fmt::format("{}: {} simulated points, median |error| {:.1f}%, worst {:.1f}%; measured run-to-run spread "
                     "(max-min)/median, median over those points {:.1f}%",
                     what, s.points, 100 * s.median_abs, 100 * s.worst_abs, 100 * s.median_spread);
}

std::string param_row(const char* name, const std::string& full, const std::string& subset) {
  return fmt::format("| {} | {} | {} |\n", name, full, subset);
}

// The write fits' rows: only where a profile has them, so a read validation's table is as it was.
std::string write_params_rows(const Profile& full, const Profile& sub) {
  auto drive = [](const Profile& p, bool bw) -> std::string {
    if (!p.writes.drive) return "-";
    return bw ? bandwidth_text(p.writes.drive->bandwidth_Bps) : time_text(p.writes.drive->latency_s);
  };
  auto flush = [](const Profile& p) -> std::string { return p.writes.flush ? time_text(p.writes.flush->cost_s) : "-"; };
  auto buffered = [](const Profile& p, bool bw) -> std::string {
    if (!p.writes.buffered) return "-";
    const SizeLine& l = p.writes.buffered->line;
    if (!bw) return time_text(l.fixed_s);
    return l.bandwidth_identified ? bandwidth_text(l.bandwidth_Bps) : "not identifiable";
  };
  auto flusher = [](const Profile& p) -> std::string {
    if (!p.writes.writeback) return "-";
    return p.writes.writeback->flusher_identified ? bandwidth_text(p.writes.writeback->flusher_Bps)
                                                  : "not identified (the drive bounds writeback)";
  };
  std::string s;
  s += param_row("drive write_latency", drive(full, false), drive(sub, false));
  s += param_row("drive write_bandwidth", drive(full, true), drive(sub, true));
  s += param_row("drive flush_cost", flush(full), flush(sub));
  s += param_row("buffered write() per call", buffered(full, false), buffered(sub, false));
  s += param_row("buffered write() bandwidth", buffered(full, true), buffered(sub, true));
  s += param_row("writeback flusher_bandwidth", flusher(full), flusher(sub));
  return s;
}

std::string params_table(const Profile& full, const Profile& sub) {
  auto storage = [](const Profile& p, int which) -> std::string {
    if (!p.storage) return "-";
    switch (which) {
      case 0: return time_text(p.storage->latency_s);
      case 1: return bandwidth_text(p.storage->bandwidth_Bps);
      case 2: return rate_text(p.storage->max_iops) + (p.iops_constrained ? "" : " (unconstrained)");
      default: return fmt::format("{:.3f}", p.latency_sigma);
    }
  };
  auto cpu = [](const Profile& p, bool call) -> std::string {
    return p.cpu ? time_text(call ? p.cpu->per_call_s : p.cpu->per_io_s) : "-";
  };
  auto line = [](const std::optional<SizeLine>& l, bool bw) -> std::string {
    if (!l) return "-";
    if (!bw) return time_text(l->fixed_s);
    return l->bandwidth_identified ? bandwidth_text(l->bandwidth_Bps) : "not identifiable";
  };
  std::string s = "| parameter | full profile | fit subset |\n|---|---|---|\n";
  s += param_row("storage read_latency", storage(full, 0), storage(sub, 0));
  s += param_row("storage read_bandwidth", storage(full, 1), storage(sub, 1));
  s += param_row("storage max_iops", storage(full, 2), storage(sub, 2));
  s += param_row("storage latency_sigma", storage(full, 3), storage(sub, 3));
  s += param_row("CPU per I/O", cpu(full, false), cpu(sub, false));
  s += param_row("CPU per call (/ qd)", cpu(full, true), cpu(sub, true));
  auto per_mib = [](const Profile& p) -> std::string { return p.cpu ? time_text(p.cpu->per_byte_s * 1048576) : "-"; };
  s += param_row("CPU per MiB", per_mib(full), per_mib(sub));
  s += param_row("memcpy per core", line(full.memcpy, true), line(sub.memcpy, true));
  s += param_row("host-to-device copy bandwidth", line(full.h2d, true), line(sub.h2d, true));
  s += param_row("host-to-device launch cost", line(full.h2d, false), line(sub.h2d, false));
  s += param_row("cuFile compat overhead per I/O", line(full.cufile, false), line(sub.cufile, false));
  if (full.writes.any() || sub.writes.any()) s += write_params_rows(full, sub);
  return s;
}

// Draws measured medians with their min-max range against the predictions.
std::string draw_chart(const ValidationResult& v, const ReportContext& ctx) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return "";
  std::string data;
  int i = 0;
  for (const PredictedPoint& r : v.rows) {
    if (r.predicted_bw <= 0) continue;
    data += fmt::format("{} {} {} {} {} {} \"{}\"\n", i++, r.measured_bw / 1e9, r.group->min_bw() / 1e9,
                        r.group->max_bw() / 1e9, r.predicted_bw / 1e9, r.fitted ? 1 : 0, r.group->key());
  }
  if (i == 0) return "";
  const std::string dat = ctx.dir + "/validation-chart.dat", gp = ctx.dir + "/validation-chart.gp";
  const std::string svg = ctx.dir + "/validation.svg";
  write_file_atomically(dat, data);
  const std::string terminal = "set terminal svg size 1100,560 dynamic background rgb 'white'\n";
  const bool writes = std::any_of(v.rows.begin(), v.rows.end(), [](const PredictedPoint& r) { return r.group->writes(); });
  const std::string plot = fmt::format("set title '{}: measured (median, min-max of repeats) vs simulated {}'\n"
                      "set ylabel 'GB/s'\nset logscale y\nset grid ytics\nset key top left\n"
                      "set xtics rotate by 60 right font ',8'\nset bmargin 14\n"
                      "plot '{}' using 1:2:3:4:xtic(7) with yerrorbars pt 7 lc rgb '#1f77b4' title 'measured', \\\n"
                      "     '' using 1:($6==0?$5:1/0) with points pt 5 ps 1.2 lc rgb '#d62728' title 'simulated, held out', \\\n"
                      "     '' using 1:($6==1?$5:1/0) with points pt 4 ps 1.2 lc rgb '#2ca02c' title 'simulated, fitted'\n",
                      ctx.title, writes ? "throughput (writes: until durable)" : "read throughput", dat);
  // The committed script names its output so that running gnuplot on it redraws the
  // chart; here gnuplot writes to a pipe and the SVG is written atomically.
  write_file_atomically(gp, terminal + fmt::format("set output '{}'\n", svg) + plot);
  return render_svg(terminal + plot, svg) == svg ? svg : "";
}

}  // namespace

std::string validation_table(const ValidationResult& v) {
  // The point column fits the longest key (a write's key names its durability too).
  std::size_t w = 36;
  for (const PredictedPoint& r : v.rows) w = std::max(w, r.group->key().size());
  std::string s = fmt::format("{:<{}} {:<8} {:>9} {:>17} {:>8} {:>9} {:>8}  {}\n", "point", w, "set", "meas GB/s",
                              "min-max GB/s", "spread", "sim GB/s", "error", "limited by / note");
  for (const PredictedPoint& r : v.rows) {
    const bool pred = r.predicted_bw > 0;
    s += fmt::format("{:<{}} {:<8} {:>9} {:>17} {:>8} {:>9} {:>8}  {}\n", r.group->key(), w, r.fitted ? "fit" : "held-out",
                     gbps(r.measured_bw), gbps(r.group->min_bw()) + "-" + gbps(r.group->max_bw()),
                     fmt::format("{:.1f}%", 100 * r.spread), pred ? gbps(r.predicted_bw) : "-",
                     pred ? pct(r.error) : "-", pred ? r.limited_by : r.method);
  }
  s += summary_line("held out", v.held_out) + "\n";
  if (v.held_out_by_type.size() > 1)
    for (const auto& [xfer, t] : v.held_out_by_type) s += summary_line(("  held out, " + xfer).c_str(), t) + "\n";
  s += summary_line("fit (in sample)", v.in_sample) + "\n";
  return s;
}

std::string write_validation_report(const ValidationResult& v, const Profile& full, const ReportContext& ctx) {
  std::error_code ec;
  std::filesystem::create_directories(ctx.dir, ec);
  if (ec) throw InputError("", "--report", fmt::format("cannot create {}: {}", ctx.dir, ec.message()));
  write_file_atomically(ctx.dir + "/validation.json", validation_json(v, full).dump(2) + "\n");
  const std::string svg = draw_chart(v, ctx);

  std::string md = fmt::format("# {}\n\nRegenerate: `{}`\n\n", ctx.title, ctx.command);
  md += fmt::format("Fitted on the points where `{}` ({} of {} configurations); every other point is predicted by "
                    "simulating it (`iowall::run_scenario`) on `{}` with the subset's fitted parameters, and compared "
                    "with the median of its repeats. Full profile for comparison: `{}`.\n\n",
                    v.fit.subset, v.fit.fitted_points.size(), v.rows.size(), ctx.topology_file, ctx.profile_file);
  const bool met = v.held_out.points > 0 && v.held_out.median_abs <= 0.10;
  md += fmt::format("**Held out:** {}.\n\n**Target** (median |error| <= 10% on held-out points): {}.\n\n",
                    summary_line("held out", v.held_out).substr(10),
                    v.held_out.points == 0 ? "not assessed (no simulated held-out point)" : met ? "met" : "NOT met");
  if (const auto w = v.held_out_by_type.find(kAllWrites); w != v.held_out_by_type.end()) {
    const bool w_met = w->second.points > 0 && w->second.median_abs <= 0.10;
    md += fmt::format("**Held out, writes (until durable):** {}. Target (median |error| <= 10%): {}.\n\n",
                      summary_line(kAllWrites, w->second), w_met ? "met" : "NOT met");
  }
  if (v.held_out_by_type.size() > 1) {
    md += "Held out, per transfer type:\n\n";
    for (const auto& [xfer, t] : v.held_out_by_type)
      md += fmt::format("- {}\n", summary_line(xfer.c_str(), t));
    md += "\n";
  }
  md += "In sample (the fit's own points, simulated): " + summary_line("fit", v.in_sample).substr(5) + ".\n\n";
  md += svg.empty() ? "No chart: gnuplot is not installed.\n\n"
                    : fmt::format("![measured vs simulated]({})\n\n", std::filesystem::path(svg).filename().string());
  md += "## Points\n\n| point | set | repeats | measured median GB/s | min-max GB/s | spread | simulated GB/s | error | "
        "limited by / note |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const PredictedPoint& r : v.rows) {
    const bool pred = r.predicted_bw > 0;
    md += fmt::format("| {} | {} | {} | {} | {}-{} | {:.1f}% | {} | {} | {} |\n", r.group->key(),
                      r.fitted ? "fit" : "held out", r.group->samples.size(), gbps(r.measured_bw), gbps(r.group->min_bw()),
                      gbps(r.group->max_bw()), 100 * r.spread, pred ? gbps(r.predicted_bw) : "-", pred ? pct(r.error) : "-",
                      pred ? r.limited_by : r.method);
  }
  md += "\n## Parameters: full profile vs fit subset\n\n" + params_table(full, v.fit);
  if (!v.fit.notes.empty()) {
    md += "\nNotes of the subset fit:\n";
    for (const auto& n : v.fit.notes) md += "- " + n + "\n";
  }
  md += "\n## Measurements\n\n";
  for (const auto& f : ctx.measurement_files) md += "- `" + f + "`\n";
  const std::string path = ctx.dir + "/validation.md";
  write_file_atomically(path, md);
  return path;
}

}  // namespace iowall::calib
