// Subcommands register themselves (one file each under sim/cli/commands/) so that
// adding a command touches no central file. A command's callback may throw
// InputError (exit 2) or RunError (exit 1); main() turns them into one line.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace iowall {

struct CliState {
  int exit_code = 0;
};

using CommandSetup = void (*)(CLI::App& root, CliState& state);

struct CommandRegistrar {
  // `order` sorts commands in `iowall --help`.
  CommandRegistrar(int order, CommandSetup setup);
};

void setup_commands(CLI::App& root, CliState& state);

#define IOWALL_REGISTER_COMMAND(ORDER, SETUP) \
  static const ::iowall::CommandRegistrar IOWALL_CONCAT(iowall_cmd_, __COUNTER__){ORDER, SETUP}
#ifndef IOWALL_CONCAT
#define IOWALL_CONCAT_(a, b) a##b
#define IOWALL_CONCAT(a, b) IOWALL_CONCAT_(a, b)
#endif

}  // namespace iowall
