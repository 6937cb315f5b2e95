#include "sim/cli/report_option.hpp"

#include "sim/report/html_report.hpp"
#include "sim/cli/output_path.hpp"

namespace iowall {

void ReportOption::add_to(CLI::App& cmd, const std::string& help) { cmd.add_option("--report", file, help)->check(writable_output()); }

void ReportOption::check() const {
  if (!file.empty()) check_report_path(file, "--report");
}

void ReportOption::write(const RunResult& result, const std::string& source) const {
  if (!file.empty()) write_html_report(file, {result_doc(result, source)}, "--report");
}

void ReportOption::write(const SweepResult& result, const std::string& source) const {
  if (!file.empty()) write_html_report(file, {result_doc(result, source)}, "--report");
}

void ReportOption::write(const PlanCheckpointResult& result, const std::string& source) const {
  if (!file.empty()) write_html_report(file, {result_doc(result, source)}, "--report");
}

void ReportOption::write(const ValidateResult& result, const std::string& source) const {
  if (!file.empty()) write_html_report(file, {result_doc(result, source)}, "--report");
}

void ReportOption::write_registered(const nlohmann::json& result, const std::string& source) const {
  if (!file.empty()) write_html_report(file, {result_from_json(result, source)}, "--report");
}

}  // namespace iowall
