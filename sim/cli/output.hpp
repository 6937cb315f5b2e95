// Shared output options of the commands: --output-format normal,json,csv,
// --output FILE (written atomically) and --quiet.
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
  void add_to(CLI::App& cmd, bool csv = true);
  bool wants(const std::string& format) const;
};

// Renders every requested format, in the order normal, json, csv, to the file or stdout.
void emit(const OutputOptions& o, const std::function<std::string()>& normal, const nlohmann::json& json,
          const std::function<std::string()>& csv = {});

}  // namespace iowall
