// `iowall report RESULT.json... -o report.html`: one self-contained HTML page with the
// tables and charts of results written by run, sweep, plan checkpoint and validate.
#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/report/html_report.hpp"
#include "sim/cli/output_path.hpp"

namespace iowall {
namespace {

void setup_report(CLI::App& root, CliState&) {
  struct Args {
    std::vector<std::string> files;
    std::string output;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = root.add_subcommand(
      "report", "an HTML report (tables, charts) of result JSON files from run, sweep, plan checkpoint, validate");
  cmd->add_option("results", args->files, "result JSON files (--output-format json of those commands)");
  cmd->add_option("-o,--output", args->output, "the HTML file to write (atomically)")->check(writable_output())->required();
  cmd->callback([args] {
    check_report_path(args->output, "--output");
    if (args->files.empty())
      throw InputError("", "RESULT", "no result files given (expected one or more result JSON files)");
    std::vector<ResultDoc> docs;
    for (const std::string& f : args->files) docs.push_back(read_result(f));
    write_html_report(args->output, docs, "--output");
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(70, setup_report);

}  // namespace iowall
