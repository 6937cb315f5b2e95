// The `iowall measure` subcommand. Declared here so that tests can build it into their
// own CLI::App and run it without starting a process.
#pragma once
#include <CLI/CLI.hpp>

#include "sim/cli/command.hpp"

namespace iowall::measure {

void setup_measure_command(CLI::App& root, CliState& state);

}  // namespace iowall::measure
