// The `iowall` executable: subcommands register themselves; this file turns errors
// into one line and an exit code (0 ok, 1 failure while running, 2 bad input or usage,
// 130 interrupted by SIGINT or SIGTERM).
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"

int main(int argc, char** argv) {
  // From the start, so SIGINT at any moment ends in the same clean way (exit 130).
  const iowall::InterruptGuard interrupt_guard;
  iowall::CliState state;
  CLI::App app{"iowall: a discrete-event simulator and capacity planner for GPU-direct storage pipelines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "iowall 0.1.0");
  iowall::setup_commands(app, state);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "iowall: {}\n", e.what());
    return 2;
  } catch (const iowall::InputError& e) {
    fmt::print(stderr, "iowall: {}\n", e.what());
    return 2;
  } catch (const iowall::Interrupted& e) {
    fmt::print(stderr, "iowall: {}\n", e.what());
    return 130;
  } catch (const iowall::RunError& e) {
    fmt::print(stderr, "iowall: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "iowall: internal error: {}\n", e.what());
    return 1;
  }
  if (iowall::stop_requested()) {
    // The command finished a step that does not poll, but the user asked it to stop.
    fmt::print(stderr, "iowall: interrupted\n");
    return 130;
  }
  return state.exit_code;
}
