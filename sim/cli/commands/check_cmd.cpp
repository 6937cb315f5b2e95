// `iowall check`: the validation corpus (published figures with their sources, and the
// scenarios that reproduce them) run and compared; with --baseline, the accuracy
// ratchet CI runs: exit 1 when the median or any point got worse than the committed
// result by more than --slack.
#include <thread>

#include <fmt/format.h>

#include "sim/check/check.hpp"
#include "sim/check/check_report.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/output_path.hpp"
#include "sim/cli/report_option.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"

namespace iowall {
namespace {

struct CheckArgs {
  std::string corpus = "validation";
  std::string source;
  int jobs = 0;
  std::string baseline;
  double slack = 0.02;
  std::string markdown;
  ReportOption report;
  OutputOptions out;
};

void setup_check(CLI::App& root, CliState& state) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = root.add_subcommand(
      "check", "reproduce the published figures of the validation corpus and report each error and the medians");
  cmd->add_option("--corpus", args->corpus, "folder of corpus files, one per source (default: validation)");
  cmd->add_option("--source", args->source, "only this source (a corpus file's name without .json)");
  cmd->add_option("--jobs", args->jobs, "simulations at once (default: the machine's hardware threads)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--baseline", args->baseline,
                  "a committed check result (JSON): exit 1 when the median, a source's median or any point is worse "
                  "than it by more than --slack");
  cmd->add_option("--slack", args->slack, "how much worse |error| may get before --baseline fails (default 0.02: 2 points)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--markdown", args->markdown, "also write the markdown report (reports/validation.md) here")
      ->check(writable_output());
  args->report.add_to(*cmd);
  args->out.add_to(*cmd, false);
  cmd->callback([args, &state] {
    args->report.check();
    // The baseline is read before any simulation: a bad file is refused at once.
    check::CheckResult baseline;
    if (!args->baseline.empty()) baseline = check::check_from_json(load_json(args->baseline).json, args->baseline);
    const check::Corpus corpus = check::load_corpus(args->corpus, args->source);
    const int jobs = args->jobs > 0 ? args->jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const check::CheckResult r = check::run_check(corpus, jobs, args->out.quiet);
    const Json result = check::check_json(r);
    std::string command = "iowall check";
    if (!args->source.empty()) command += " --source " + args->source;
    args->report.write_registered(result, command);
    if (!args->markdown.empty()) {
      std::string regenerate = command + " --markdown " + args->markdown;
      if (!args->out.file.empty()) regenerate += " --output-format " + args->out.formats + " --output " + args->out.file;
      write_file_atomically(args->markdown, check::check_markdown(r, corpus, regenerate));
    }
    std::vector<std::string> worse;
    if (!args->baseline.empty()) worse = check::regressions(r, baseline, args->slack);
    emit(
        args->out,
        [&] {
          std::string text = check::check_table(r);
          if (!args->baseline.empty())
            text += worse.empty() ? fmt::format("no point, source or median is worse than {} by more than {:.0f} points\n",
                                                args->baseline, args->slack * 100)
                                  : fmt::format("worse than {}:\n  {}\n", args->baseline, fmt::join(worse, "\n  "));
          return text;
        },
        result);
    if (!worse.empty()) {
      for (const std::string& w : worse) fmt::print(stderr, "iowall: check: {}\n", w);
      state.exit_code = 1;
    }
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(55, setup_check);

}  // namespace iowall
