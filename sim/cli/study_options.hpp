// A study command's options gathered into the Params of its study (sim/config/study.hpp):
// each option the user gave becomes one key (`--io-size` sets "io_size", or the key the
// option names), `--param key=value` sets any other key, `--seed` and `--set` go to the
// run's environment. The command then runs the study by name and emits its result; an
// error the study finds in a key names the option the user typed (or `--param` and the
// key), in one line with exit code 2.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/output.hpp"
#include "sim/config/study.hpp"

namespace iowall {

// Its callbacks hold its address: keep it where it is made (in a shared_ptr).
class StudyOptions {
public:
  // `study`: the registered name; `where`: names the command in errors ("iowall net incast").
  StudyOptions(std::string study, std::string where) : study_(std::move(study)), where_(std::move(where)) {}
  StudyOptions(const StudyOptions&) = delete;
  StudyOptions& operator=(const StudyOptions&) = delete;

  // An option taking text (a quantity with its unit, a name, a list): key from the
  // option's name unless given.
  CLI::Option* text(CLI::App& cmd, const std::string& option, const std::string& help, const std::string& key = {});
  CLI::Option* integer(CLI::App& cmd, const std::string& option, const std::string& help, const std::string& key = {});
  CLI::Option* number(CLI::App& cmd, const std::string& option, const std::string& help, const std::string& key = {});
  // A flag that sets the key to `value` ("!--no-x" style names are not used: give the value).
  CLI::Option* flag(CLI::App& cmd, const std::string& option, const std::string& help, const std::string& key = {},
                    bool value = true);
  // `--param key=value` for the keys without an option of their own.
  CLI::Option* params(CLI::App& cmd, const std::string& help);
  CLI::Option* seed(CLI::App& cmd, const std::string& help);
  CLI::Option* overrides(CLI::App& cmd, const std::string& option, const std::string& help);
  void outputs(CLI::App& cmd) { out_.add_to(cmd, false); }

  // Builds the Params, runs the study (with `runner` for studies that run scenarios)
  // and emits its result.
  void run(const ScenarioRunner* runner = nullptr) const;

private:
  std::string key_of(const std::string& option, const std::string& key);
  // The options given and the --param pairs in one object; `from_params`: the keys the
  // pairs set.
  Json params_json(std::set<std::string>& from_params) const;
  [[noreturn]] void rethrow_at_option(const InputError& e, const std::set<std::string>& from_params) const;

  std::string study_, where_;
  Json given_ = Json::object();                   // filled as options are parsed
  std::map<std::string, std::string> option_of_;  // key -> option ("--io-size")
  std::vector<std::string> params_;               // --param key=value, as typed
  bool has_params_ = false;
  std::uint64_t seed_ = 1;
  std::vector<std::string> overrides_;
  OutputOptions out_;
};

}  // namespace iowall
