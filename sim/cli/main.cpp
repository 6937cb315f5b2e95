// The `iowall` executable: subcommands register themselves; this file turns errors
// into one line and an exit code (0 ok, 1 failure while running, 2 bad input or usage,
// 130 interrupted by SIGINT or SIGTERM).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/suggest.hpp"

namespace {

// Every error is one line of at most 300 characters: newlines become spaces, and a
// longer message keeps its start (the file, pointer or option) and its end (what was
// expected), with the middle elided.
std::string one_line(std::string m) {
  for (char& c : m)
    if (c == '\n' || c == '\r') c = ' ';
  constexpr std::size_t kMax = 300 - 8;  // "iowall: " before it
  if (m.size() <= kMax) return m;
  std::size_t head = 190, tail = kMax - head - 5;
  while (head > 0 && (static_cast<unsigned char>(m[head]) & 0xC0) == 0x80) --head;
  std::size_t from = m.size() - tail;
  while (from < m.size() && (static_cast<unsigned char>(m[from]) & 0xC0) == 0x80) ++from;
  return m.substr(0, head) + " ... " + m.substr(from);
}

// CLI11 says only "A subcommand is required": name the command that needs one, the word
// given instead (if any), and the choices.
std::string subcommand_error(const CLI::App& app, int argc, char** argv) {
  const CLI::App* cur = &app;
  int at = 0;  // argv index of cur's name
  for (;;) {
    const auto subs = cur->get_subcommands();
    if (subs.empty()) break;
    const CLI::App* next = subs.front();
    for (int i = at + 1; i < argc; ++i)
      if (next->check_name(argv[i])) {
        at = i;
        break;
      }
    cur = next;
  }
  std::vector<std::string> names;
  for (const CLI::App* sub : const_cast<CLI::App*>(cur)->get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  std::string choices;
  for (const auto& n : names) choices += (choices.empty() ? "" : ", ") + n;
  const std::string who = cur == &app ? std::string("iowall") : cur->get_name();
  if (at + 1 < argc)
    return fmt::format("{}: \"{}\" is not a command of {} (expected one of: {}){}", argv[at + 1], argv[at + 1], who,
                       choices, iowall::did_you_mean(argv[at + 1], names));
  return fmt::format("{}: a command is required (one of: {})", who, choices);
}

// CLI11 says "The following arguments were not expected: --mtbf": add the options of the
// command that are close to each unexpected one ("did you mean --mttf?").
std::string extras_error(const CLI::App& app, const std::string& what) {
  const CLI::App* cur = &app;
  for (;;) {
    const auto subs = cur->get_subcommands();
    if (subs.empty()) break;
    cur = subs.front();
  }
  std::vector<std::string> options;
  for (const CLI::Option* o : cur->get_options()) {
    for (const std::string& n : o->get_lnames()) options.push_back("--" + n);
    for (const std::string& n : o->get_snames()) options.push_back("-" + n);
  }
  std::string out = what;
  for (std::string extra : cur->remaining()) {
    if (extra.size() < 2 || extra[0] != '-') continue;
    extra = extra.substr(0, extra.find('='));
    if (const std::string hint = iowall::did_you_mean(extra, options, false); !hint.empty())
      out += fmt::format(" ({}: {}", extra, hint.substr(2));  // " (did you mean ...?)" without its " ("
  }
  return out;
}

}  // namespace

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
  } catch (const CLI::RequiredError& e) {
    const std::string what = e.what();
    const bool subcommand = what.find("subcommand") != std::string::npos;
    fmt::print(stderr, "iowall: {}\n", one_line(subcommand ? subcommand_error(app, argc, argv) : what));
    return 2;
  } catch (const CLI::ExtrasError& e) {
    fmt::print(stderr, "iowall: {}\n", one_line(extras_error(app, e.what())));
    return 2;
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "iowall: {}\n", one_line(e.what()));
    return 2;
  } catch (const iowall::InputError& e) {
    fmt::print(stderr, "iowall: {}\n", one_line(e.what()));
    return 2;
  } catch (const iowall::Interrupted& e) {
    fmt::print(stderr, "iowall: {}\n", one_line(e.what()));
    return 130;
  } catch (const iowall::RunError& e) {
    fmt::print(stderr, "iowall: {}\n", one_line(e.what()));
    return 1;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "iowall: out of memory: the input asks for more than this machine has\n");
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "iowall: internal error: {}\n", one_line(e.what()));
    return 1;
  }
  if (iowall::stop_requested()) {
    // The command finished a step that does not poll, but the user asked it to stop.
    fmt::print(stderr, "iowall: interrupted\n");
    return 130;
  }
  return state.exit_code;
}
