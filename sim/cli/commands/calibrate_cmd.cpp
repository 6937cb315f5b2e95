// `iowall calibrate MEASUREMENTS... -o PROFILE.json`: fits model parameters to measured
// points; with --emit-topology, also writes a topology that takes its values from the profile.
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "measure/calibrate.hpp"
#include "measure/calibrate_topology.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/cli/output_path.hpp"

namespace iowall {
namespace {

struct CalibrateArgs {
  std::vector<std::string> files;
  std::string profile, name, machine, subset = "all", topology, emit_topology;
  OutputOptions out;
};

std::string summary(const calib::Profile& p) {
  std::string s = fmt::format("profile {} ({} configurations fitted, subset: {})\n", p.name, p.fitted_points.size(), p.subset);
  if (p.storage)
    s += fmt::format("  storage  read_latency {}  read_bandwidth {}  max_iops {}{}  sigma {:.3f}  R2 {:.3f} ({} points)\n",
                     calib::time_text(p.storage->latency_s), calib::bandwidth_text(p.storage->bandwidth_Bps),
                     calib::rate_text(p.storage->max_iops), p.iops_constrained ? "" : " (unconstrained)",
                     p.latency_sigma, p.storage_q.r2, p.storage_q.points);
  if (p.storage && p.storage->copy_cache_bytes > 0)
    s += fmt::format("  copies   copy_cache {}  cold_copy_bandwidth {} (a virtual disk's reads into buffers beyond "
                     "the cache)\n",
                     to_string(Bytes(static_cast<i64>(p.storage->copy_cache_bytes))),
                     calib::bandwidth_text(p.storage->cold_copy_Bps));
  if (p.cpu)
    s += fmt::format("  cpu      per I/O {} + {} per MiB + per call {} / qd  R2 {:.3f} ({} points)\n",
                     calib::time_text(p.cpu->per_io_s), calib::time_text(p.cpu->per_byte_s * 1048576),
                     calib::time_text(p.cpu->per_call_s), p.cpu_q.r2, p.cpu_q.points);
  auto line = [&](const char* name, const std::optional<calib::SizeLine>& l) {
    if (!l) return;
    s += fmt::format("  {:<8} fixed {}  bandwidth {}  R2 {:.3f} ({} points)\n", name, calib::time_text(l->fixed_s),
                     l->bandwidth_identified ? calib::bandwidth_text(l->bandwidth_Bps) : "not identifiable", l->q.r2, l->q.points);
  };
  line("memcpy", p.memcpy);
  line("h2d", p.h2d);
  line("cufile", p.cufile);
  const calib::WriteFits& w = p.writes;
  if (w.drive)
    s += fmt::format("  writes   write_latency {}  write_bandwidth {}  R2 {:.3f} ({} points)\n",
                     calib::time_text(w.drive->latency_s), calib::bandwidth_text(w.drive->bandwidth_Bps), w.drive->q.r2,
                     w.drive->q.points);
  if (w.flush)
    s += fmt::format("  flush    flush_cost {} (median fsync of O_DIRECT writes, {} points)\n",
                     calib::time_text(w.flush->cost_s), w.flush->from.points.size());
  if (w.buffered) line("buffered", w.buffered->line);
  if (w.writeback)
    s += fmt::format("  writeback flusher_bandwidth {}  request {}  R2 {:.3f} ({} points)\n",
                     w.writeback->flusher_identified ? calib::bandwidth_text(w.writeback->flusher_Bps) : "not identified",
                     w.writeback->request_bytes > 0 ? to_string(Bytes(w.writeback->request_bytes)) : "not recorded",
                     w.writeback->q.r2, w.writeback->q.points);
  for (const auto& n : p.notes) s += "  note: " + n + "\n";
  return s;
}

// The topology as the profile records it: a file on disk relative to the profile's
// folder (as a scenario names its topology relative to itself), so that validate finds
// it from any folder; a shipped name or an absolute path as given.
std::string path_from_profile(const std::string& topology, const std::string& profile) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path t(topology);
  if (t.empty() || t.is_absolute() || !fs::is_regular_file(t, ec)) return topology;
  const fs::path from = fs::absolute(fs::path(profile), ec).parent_path();
  if (ec) return topology;
  const fs::path rel = fs::absolute(t, ec).lexically_normal().lexically_relative(from.lexically_normal());
  return ec || rel.empty() ? topology : rel.generic_string();
}

void setup_calibrate(CLI::App& root, CliState&) {
  auto a = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = root.add_subcommand("calibrate", "fit model parameters to `iowall measure` results: a profile JSON");
  cmd->add_option("measurements", a->files, "measurement JSON files written by `iowall measure --output-format json`");
  cmd->add_option("-o,--profile", a->profile, "write the profile here")->check(writable_output())->required();
  cmd->add_option("--name", a->name, "profile name (default: the profile file's stem)");
  cmd->add_option("--machine", a->machine, "what was measured, in words");
  cmd->add_option("--fit-subset", a->subset, "fit only these points: e.g. \"qd=1,io_size<=64KiB\" (default all)");
  cmd->add_option("--topology", a->topology, "the measured machine's topology, recorded in the profile");
  cmd->add_option("--emit-topology", a->emit_topology, "also write --topology with the fitted parameters filled in")->check(writable_output());
  a->out.add_to(*cmd, false, "no summary (the profile file is the result; JSON only with --output-format json)");
  cmd->callback([a] {
    if (a->files.empty()) throw InputError("", "MEASUREMENTS", "no measurement file given");
    if (!a->emit_topology.empty() && a->topology.empty())
      throw InputError("", "--emit-topology", "needs --topology, the base topology to fill in");
    const calib::Subset subset(a->subset);
    // The base topology is read before the fit: a bad file is refused before any work.
    std::optional<JsonDocument> base;
    if (!a->topology.empty()) base = load_json(a->topology);
    calib::Profile p = calib::calibrate(calib::load_points(a->files), subset);
    p.name = a->name.empty() ? std::filesystem::path(a->profile).stem().string() : a->name;
    p.machine = a->machine;
    p.files = a->files;
    p.topology = path_from_profile(a->topology, a->profile);
    const nlohmann::json j = calib::profile_to_json(p);
    if (base && !a->emit_topology.empty()) {
      const nlohmann::json t = calib::apply_profile(base->json, p, a->topology, a->profile);
      write_file_atomically(a->emit_topology, t.dump(2) + "\n");
    }
    write_file_atomically(a->profile, j.dump(2) + "\n");
    // -q: the profile file is the answer; the summary is left out (JSON only if asked for).
    if (a->out.quiet && !a->out.wants("json")) return;
    emit(a->out, [&] { return a->out.quiet ? std::string() : summary(p); }, j);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(60, setup_calibrate);

}  // namespace iowall
