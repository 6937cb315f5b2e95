// Shared output options of the commands: --output-format normal,json[,csv] (or "both",
// fio's and the commands' word for normal,json), --output FILE (written atomically) and
// --quiet. Every format, file and value is checked while the command line is parsed,
// before any work starts.
#pragma once
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace iowall {

struct OutputOptions {
  std::string formats = "normal";
  std::string file;
  bool quiet = false;
  // `csv`: the command writes CSV too (run, sweep).
  void add_to(CLI::App& cmd, bool csv = true, const std::string& quiet_help = "no progress display");
  // True when `format` (normal, json or csv) was asked for; "both" asks for normal and json.
  bool wants(const std::string& format) const;
};

// The problem with a --output-format value ("" when fine): every item is normal, json,
// both, or csv where `csv` is allowed.
std::string output_format_problem(const std::string& formats, bool csv);

// Renders every requested format, in the order normal, json, csv, to the file or stdout.
void emit(const OutputOptions& o, const std::function<std::string()>& normal, const nlohmann::json& json,
          const std::function<std::string()>& csv = {});

}  // namespace iowall
