// The --report FILE option of run, sweep, plan checkpoint and validate: the same HTML
// page as `iowall report` for the command's own result.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "sim/report/plan_result.hpp"
#include "sim/report/run_result.hpp"
#include "sim/report/validate_result.hpp"

namespace iowall {

struct ReportOption {
  std::string file;
  void add_to(CLI::App& cmd, const std::string& help = "also write an HTML report (tables and charts) to FILE");
  // Before the command does its work: refuses a report path whose directory does not exist.
  void check() const;
  // `source` names the result in the page (the command line that produced it).
  void write(const RunResult& result, const std::string& source) const;
  void write(const SweepResult& result, const std::string& source) const;
  void write(const PlanCheckpointResult& result, const std::string& source) const;
  void write(const ValidateResult& result, const std::string& source) const;
  // A result of a kind registered above the writers (the accuracy check): its JSON.
  void write_registered(const nlohmann::json& result, const std::string& source) const;
};

}  // namespace iowall
