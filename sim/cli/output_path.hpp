// The check every option that names an output file carries: run while the command line
// is parsed, so an output that cannot be written is refused before any work starts.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "sim/core/atomic_file.hpp"

namespace iowall {

inline CLI::Validator writable_output() {
  return CLI::Validator([](std::string& path) { return output_path_problem(path); }, "FILE", "writable output");
}

}  // namespace iowall
