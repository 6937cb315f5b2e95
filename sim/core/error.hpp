// Typed errors. InputError is bad input (exit code 2) and carries where it was found:
// a file and a JSON pointer, or a command-line option. RunError is a failure while
// running (exit code 1). Interrupted is a run stopped by SIGINT/SIGTERM (exit code 130,
// as a shell reports a process ended by SIGINT). Library code throws; only the CLI
// decides how to exit.
#pragma once
#include <stdexcept>
#include <string>

namespace iowall {

class InputError : public std::runtime_error {
public:
  InputError(std::string where, std::string pointer, std::string message)
      : std::runtime_error(compose(where, pointer, message)),
        where_(std::move(where)),
        pointer_(std::move(pointer)),
        message_(std::move(message)) {}
  const std::string& where() const { return where_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& message() const { return message_; }

private:
  static std::string compose(const std::string& w, const std::string& p, const std::string& m) {
    std::string s = w;
    if (!p.empty()) s += (s.empty() ? "" : ": ") + p;
    return s + (s.empty() ? "" : ": ") + m;
  }
  std::string where_, pointer_, message_;
};

class RunError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class Interrupted : public RunError {
public:
  using RunError::RunError;
};

}  // namespace iowall
