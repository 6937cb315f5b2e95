// `iowall validate PROFILE MEASUREMENTS... --fit-subset SPEC`: fits on the subset,
// predicts the other points by simulation, prints the errors and writes a report.
#include <filesystem>

#include <fmt/format.h>

#include "measure/validate_report.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/report_option.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/progress.hpp"
#include "sim/report/validate_result_json.hpp"
#include "sim/cli/uncertainty_option.hpp"

namespace iowall {
namespace {

struct ValidateArgs {
  std::string profile;
  std::vector<std::string> files;
  std::string subset = "threads=1", topology, report, title;
  int jobs = 1;
  UncertaintyOption uncertainty;
  OutputOptions out;
};

void setup_validate(CLI::App& root, CliState&) {
  auto a = std::make_shared<ValidateArgs>();
  CLI::App* cmd = root.add_subcommand(
      "validate", "fit on a subset of measured points, predict the rest by simulation, report the errors");
  cmd->add_option("profile", a->profile, "the machine's full profile (from `iowall calibrate`)")->required();
  cmd->add_option("measurements", a->files, "measurement JSON files written by `iowall measure`");
  cmd->add_option("--fit-subset", a->subset,
                  "points to fit on, e.g. \"threads=1\" or \"io_size<=64KiB\" (default threads=1); none: refit nothing, "
                  "carry the profile as it is to every point (a fit from another machine or day)");
  cmd->add_option("--topology", a->topology, "the measured machine's topology (default: the profile's)");
  cmd->add_option("--report", a->report,
                  "FILE.html: write the HTML report there; any other path: a folder for validation.md, .json and .svg");
  cmd->add_option("--title", a->title, "report title");
  a->uncertainty.add_to(*cmd, false, false);
  cmd->get_option("--uncertainty")
      ->description("N samples per simulated point of the topology's uncertain values (a calibrated topology carries "
                    "each fitted value's standard error): each prediction's 90% interval, and how many held-out "
                    "measured medians fall inside it, reads and writes apart");
  cmd->add_option("--jobs,-j", a->jobs, "samples run in parallel for --uncertainty")->check(CLI::Range(1, 1024));
  a->out.add_to(*cmd, false);
  cmd->callback([a] {
    a->uncertainty.check();
    // A path ending in .html is the HTML report every command writes; others keep
    // their meaning of a markdown report folder.
    const bool html = a->report.size() > 5 && a->report.compare(a->report.size() - 5, 5, ".html") == 0;
    ReportOption html_report;
    if (html) html_report.file = a->report;
    html_report.check();
    const calib::Profile full = calib::read_profile(a->profile);
    if (a->files.empty()) throw InputError("", "MEASUREMENTS", "no measurement file given");
    const std::string topo_file = a->topology.empty() ? full.topology : a->topology;
    if (topo_file.empty()) throw InputError(a->profile, "/topology", "names no topology: give --topology");
    // The profile's topology is relative to the profile's folder (an older profile's, to
    // where it was made: tried second); --topology is relative to here.
    const std::string profile_dir = std::filesystem::path(a->profile).parent_path().string();
    const JsonDocument base = a->topology.empty() ? load_json(topo_file, profile_dir.empty() ? "." : profile_dir)
                                                  : load_json(topo_file);
    const calib::Subset subset(a->subset);
    const std::vector<calib::PointGroup> groups = calib::load_points(a->files);
    Progress progress("measured points", groups.size(), a->out.quiet);
    std::optional<UncertaintyOptions> u;
    if (a->uncertainty.any()) {
      u = a->uncertainty.options(a->jobs, true);
    }
    const calib::ValidationResult v =
        calib::validate(groups, subset, base.json, topo_file, [&] { progress.advance(); }, &full, u ? &*u : nullptr);
    progress.finish();
    if (!a->report.empty() && !html) {
      calib::ReportContext ctx;
      ctx.dir = a->report;
      ctx.title = a->title.empty() ? fmt::format("Validation of {} (fit on {})", full.name, a->subset) : a->title;
      ctx.command = fmt::format("iowall validate {} <{} measurement files> --fit-subset '{}' --topology {} --report {}",
                                a->profile, a->files.size(), a->subset, topo_file, a->report);
      ctx.profile_file = a->profile;
      ctx.topology_file = topo_file;
      ctx.measurement_files = a->files;
      calib::write_validation_report(v, full, ctx);
    }
    const ValidateResult result = calib::validation_result(v, full);
    html_report.write(result, "iowall validate " + a->profile);
    emit(a->out, [&] { return calib::validation_table(v) + calib::coverage_text(v); }, to_json(result));
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(61, setup_validate);

}  // namespace iowall
