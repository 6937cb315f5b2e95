#include "sim/cli/output.hpp"

#include <cstdio>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/cli/output_path.hpp"

namespace iowall {

void OutputOptions::add_to(CLI::App& cmd, bool csv) {
  cmd.add_option("--output-format", formats, csv ? "normal, json, csv, or a comma-separated list" : "normal, json, or both")
      ->default_val("normal")
      ->check(CLI::Validator(
          [csv](std::string& text) -> std::string {
            if (text == "both") text = "normal,json";
            std::stringstream ss(text);
            std::string item;
            int n = 0;
            while (std::getline(ss, item, ',')) {
              ++n;
              if (item != "normal" && item != "json" && !(item == "csv" && csv))
                return fmt::format("\"{}\" is not an output format (expected normal, json{})",
                                   item.substr(0, 40), csv ? ", csv or a comma-separated list" : " or both");
            }
            return n == 0 ? "no format given (expected normal, json" + std::string(csv ? " or csv)" : " or both)") : "";
          },
          "FORMATS", "output formats"));
  cmd.add_option("--output", file, "write the output to FILE (atomically) instead of stdout")->check(writable_output());
  cmd.add_flag("--quiet,-q", quiet, "no progress display");
}

bool OutputOptions::wants(const std::string& format) const {
  std::stringstream ss(formats);
  std::string item;
  while (std::getline(ss, item, ','))
    if (item == format) return true;
  return false;
}

void emit(const OutputOptions& o, const std::function<std::string()>& normal, const nlohmann::json& json,
          const std::function<std::string()>& csv) {
  std::stringstream ss(o.formats);
  std::string item;
  while (std::getline(ss, item, ','))
    if (item != "normal" && item != "json" && !(item == "csv" && csv))
      throw InputError("", "--output-format",
                       fmt::format("\"{}\" is not an output format (expected normal, json{})", item, csv ? " or csv" : ""));
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
