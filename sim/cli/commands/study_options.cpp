#include "sim/cli/study_options.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "sim/cli/option_values.hpp"
#include "sim/core/quote.hpp"
#include "sim/report/result_file.hpp"

namespace iowall {

std::string StudyOptions::key_of(const std::string& option, const std::string& key) {
  std::string k = key;
  if (k.empty()) {
    k = option.substr(option.find_first_not_of('-'));
    for (char& c : k)
      if (c == '-') c = '_';
  }
  option_of_[k] = option;
  return k;
}

CLI::Option* StudyOptions::text(CLI::App& cmd, const std::string& option, const std::string& help,
                                const std::string& key) {
  const std::string k = key_of(option, key);
  return cmd.add_option_function<std::string>(option, [this, k](const std::string& v) { given_[k] = v; }, help);
}

CLI::Option* StudyOptions::integer(CLI::App& cmd, const std::string& option, const std::string& help,
                                   const std::string& key) {
  const std::string k = key_of(option, key);
  return cmd.add_option_function<i64>(option, [this, k](const i64& v) { given_[k] = v; }, help);
}

CLI::Option* StudyOptions::number(CLI::App& cmd, const std::string& option, const std::string& help,
                                  const std::string& key) {
  const std::string k = key_of(option, key);
  return cmd.add_option_function<double>(option, [this, k](const double& v) { given_[k] = v; }, help);
}

CLI::Option* StudyOptions::flag(CLI::App& cmd, const std::string& option, const std::string& help,
                                const std::string& key, bool value) {
  const std::string k = key_of(option, key);
  return cmd.add_flag_callback(option, [this, k, value] { given_[k] = value; }, help);
}

CLI::Option* StudyOptions::params(CLI::App& cmd, const std::string& help) {
  has_params_ = true;
  return cmd.add_option("--param", params_, help);
}

CLI::Option* StudyOptions::seed(CLI::App& cmd, const std::string& help) { return add_seed_option(cmd, seed_, help); }

CLI::Option* StudyOptions::overrides(CLI::App& cmd, const std::string& option, const std::string& help) {
  return cmd.add_option(option, overrides_, help);
}

namespace {

// A --param value as JSON: true/false, a number (integer unless it has a point or an
// exponent), else text (a quantity with its unit, a name).
Json param_value(const std::string& v) {
  if (v == "true" || v == "false") return v == "true";
  char* end = nullptr;
  const double num = std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end != '\0' || !std::isfinite(num)) return v;
  if (v.find_first_of(".eE") == std::string::npos && std::abs(num) < 9.2e18) return static_cast<i64>(num);
  return num;
}

}  // namespace

Json StudyOptions::params_json(std::set<std::string>& from_params) const {
  Json j = given_;
  for (const std::string& kv : params_) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("", "--param", fmt::format("\"{}\" is not key=value", quote_text(kv, 60)));
    const std::string k = kv.substr(0, eq);
    if (given_.contains(k))
      throw InputError("", "--param", fmt::format("{}: given as {} as well", quote_text(k, 60), option_of_.at(k)));
    j[k] = param_value(kv.substr(eq + 1));
    from_params.insert(k);
  }
  return j;
}

void StudyOptions::rethrow_at_option(const InputError& e, const std::set<std::string>& from_params) const {
  const std::string& ptr = e.pointer();
  if (e.where() == where_ && ptr.size() > 1 && ptr[0] == '/') {
    const std::string key = ptr.substr(1, ptr.find('/', 1) - 1);
    const auto it = option_of_.find(key);
    if (!from_params.count(key) && it != option_of_.end()) throw InputError("", it->second, e.message());
    if (has_params_) throw InputError("", "--param", key + ": " + e.message());
  }
  throw e;
}

void StudyOptions::run(const ScenarioRunner* runner) const {
  std::set<std::string> from_params;
  const Json j = params_json(from_params);
  StudyEnv env;
  env.seed = seed_;
  env.overrides = overrides_;
  env.runner = runner;
  std::unique_ptr<StudyResult> result;
  try {
    result = run_study(study_, Params(j, {where_, ""}), env);
  } catch (const InputError& e) {
    rethrow_at_option(e, from_params);
  }
  Json out = result->to_json();
  if (const std::string kind = result->result_kind(); !kind.empty()) out["iowall_result"] = result_marker(kind);
  emit(out_, [&] { return result->to_text(); }, out);
}

}  // namespace iowall
