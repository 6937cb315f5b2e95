#include "sim/cli/output.hpp"

#include <cstdio>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"
#include "sim/cli/output_path.hpp"

namespace iowall {

std::string output_format_problem(const std::string& formats, bool csv) {
  const std::string expected = csv ? "normal, json, csv, both or a comma-separated list" : "normal, json or both";
  std::stringstream ss(formats);
  std::string item;
  int n = 0;
  while (std::getline(ss, item, ',')) {
    ++n;
    if (item != "normal" && item != "json" && item != "both" && !(item == "csv" && csv))
      return fmt::format("\"{}\" is not an output format (expected {})", quote_text(item, 40), expected);
  }
  return n == 0 ? "no format given (expected " + expected + ")" : "";
}

void OutputOptions::add_to(CLI::App& cmd, bool csv, const std::string& quiet_help) {
  cmd.add_option("--output-format", formats,
                 csv ? "normal, json, csv, both (= normal,json), or a comma-separated list" : "normal, json, or both")
      ->default_val("normal")
      ->check(CLI::Validator([csv](std::string& text) { return output_format_problem(text, csv); }, "FORMATS",
                             "output formats"));
  cmd.add_option("--output", file, "write the output to FILE (atomically) instead of stdout")->check(writable_output());
  cmd.add_flag("--quiet,-q", quiet, quiet_help);
}

bool OutputOptions::wants(const std::string& format) const {
  std::stringstream ss(formats);
  std::string item;
  while (std::getline(ss, item, ','))
    if (item == format || (item == "both" && (format == "normal" || format == "json"))) return true;
  return false;
}

void emit(const OutputOptions& o, const std::function<std::string()>& normal, const nlohmann::json& json,
          const std::function<std::string()>& csv) {
  // The parser checked the formats already; a command that sets them itself is checked here.
  if (const std::string bad = output_format_problem(o.formats, static_cast<bool>(csv)); !bad.empty())
    throw InputError("", "--output-format", bad);
  std::string out;
  if (o.wants("normal")) out += normal();
  if (o.wants("json")) out += json.dump(2) + "\n";
  if (o.wants("csv") && csv) out += csv();
  if (o.file.empty()) {
    std::fwrite(out.data(), 1, out.size(), stdout);
  } else {
    write_file_atomically(o.file, out);
  }
}

}  // namespace iowall
