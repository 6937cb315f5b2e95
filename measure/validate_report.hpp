// Writes a validation into a report folder: validation.md (the error table, the fitted
// parameters beside those of the full profile), validation.json, and validation.svg drawn
// by gnuplot when it is installed (the markdown says when it is not).
#pragma once
#include <string>
#include <vector>

#include "measure/validate.hpp"

namespace iowall::calib {

struct ReportContext {
  std::string dir, title, command;
  std::string profile_file, topology_file;
  std::vector<std::string> measurement_files;
};

// The per-point table as plain text, for the terminal.
std::string validation_table(const ValidationResult& v);
// Writes the report files; returns the path of the markdown.
std::string write_validation_report(const ValidationResult& v, const Profile& full, const ReportContext& ctx);

}  // namespace iowall::calib
