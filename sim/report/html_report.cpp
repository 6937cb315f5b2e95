#include "sim/report/html_report.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/html.hpp"
#include "sim/report/report_page.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/result_kinds.hpp"

namespace iowall {

std::string html_report(const std::vector<ResultDoc>& docs) {
  report::Charts charts;
  std::string sections;
  for (const ResultDoc& d : docs) {
    if (d.kind == "run") sections += report::run_section(d, charts);
    else if (d.kind == "sweep") sections += report::sweep_section(d, charts);
    else if (d.kind == "plan_checkpoint") sections += report::plan_section(d, charts);
    else if (d.kind == "validate") sections += report::validate_section(d, charts);
    else if (const report::ResultKind* k = report::find_result_kind(d.kind)) sections += k->section(d, charts);
  }
  std::string body;
  if (charts.gnuplot_missing())
    body += html::paragraph("gnuplot is not installed, so this report has no charts; the tables below are complete. "
                            "Install gnuplot (Debian: gnuplot-nox) and run the report again for the charts.",
                            "warning");
  std::vector<std::pair<std::string, std::string>> files;
  for (const ResultDoc& d : docs) files.emplace_back(d.kind, d.file);
  body += "<p class=\"note\">Results in this report (kind: file):</p>\n<ul>\n";
  for (const auto& [kind, file] : files) body += "<li>" + html::escape(kind + ": " + file) + "</li>\n";
  body += "</ul>\n";
  body += html::paragraph("Units: GB/s = 10^9 bytes per second; GB and TB are decimal; KiB = 1024 bytes; µs = "
                          "microseconds; CPU cores are time-weighted means over the run.",
                          "note");
  body += sections;
  std::string title = "iowall report";
  if (docs.size() == 1) {
    const ResultDoc& d = docs[0];
    const std::string name = d.run        ? d.run->scenario
                             : d.sweep    ? d.sweep->scenario
                             : d.plan     ? d.plan->name
                             : d.validate ? d.validate->full_profile
                                          : std::string();
    title += ": " + (name.empty() ? d.file : name);
  } else {
    title += fmt::format(": {} results", docs.size());
  }
  return report::page(title, body);
}

void check_report_path(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  if (path.empty()) throw InputError("", option, "the report path is empty");
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError("", option, fmt::format("cannot write {}: directory {} does not exist", path, dir.string()));
  if (fs::is_directory(target, ec))
    throw InputError("", option, fmt::format("cannot write {}: it is a directory", path));
}

void write_html_report(const std::string& path, const std::vector<ResultDoc>& docs, const std::string& option) {
  check_report_path(path, option);
  if (docs.empty()) throw InputError("", "RESULT", "no result files given (expected one or more result JSON files)");
  write_file_atomically(path, html_report(docs));
}

}  // namespace iowall
