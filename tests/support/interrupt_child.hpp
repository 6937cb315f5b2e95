// Starts the real `iowall` executable as a child process and interrupts it with SIGINT
// once it is ready to take the signal, for tests that a stopped command leaves nothing
// behind. Readiness is read from /proc (the SIGINT handler is installed), not guessed
// from timing, so the tests do not depend on how fast the machine is.
#pragma once
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace iowall::testing {

struct InterruptedChild {
  bool exited = false;    // ended by exit() rather than by a signal
  int exit_code = -1;
  bool killed = false;    // did not stop within the grace period and was killed
  std::chrono::milliseconds stop_latency{0};  // from SIGINT to the child's exit
  std::string stderr_text;
};

// True once `pid` catches SIGINT (bit 2 of SigCgt in /proc/PID/status).
inline bool catches_sigint(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) & (1ull << (SIGINT - 1))) != 0;
  return false;
}

// True once `pid` runs IOWALL_BINARY: until execv the child is a copy of the test
// program and may still hold its SIGINT handler (Catch's), which must not count as ready.
inline bool runs_iowall(pid_t pid) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
  return !ec && std::filesystem::equivalent(exe, IOWALL_BINARY, ec);
}

// Runs IOWALL_BINARY with `args`, stderr to `stderr_file`, stdout discarded; sends SIGINT
// `after` the handler is in place, and waits up to `grace` for the child to end.
inline InterruptedChild interrupt_iowall(const std::vector<std::string>& args, const std::string& stderr_file,
                                         std::chrono::milliseconds after = std::chrono::milliseconds(300),
                                         std::chrono::seconds grace = std::chrono::seconds(60)) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Until execv this is a copy of the test program, whose framework catches SIGINT:
    // back to the default, so that "catches SIGINT" below means iowall's own handler.
    ::signal(SIGINT, SIG_DFL);
    const int err = ::open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(err, 2);
    std::vector<char*> argv{const_cast<char*>(IOWALL_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(IOWALL_BINARY, argv.data());
    ::_exit(127);
  }
  InterruptedChild r;
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  // Ready, or already gone (a failure the checks below report).
  pid_t done = 0;
  while (!(runs_iowall(pid) && catches_sigint(pid)) && (done = ::waitpid(pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() - start < grace)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (done == 0) {
    std::this_thread::sleep_for(after);  // let it get into the work; correctness does not depend on this
    ::kill(pid, SIGINT);
    const auto sent = std::chrono::steady_clock::now();
    while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() - sent < grace)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    r.stop_latency = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - sent);
  }
  if (done == 0) {
    r.killed = true;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  r.exited = WIFEXITED(status);
  r.exit_code = r.exited ? WEXITSTATUS(status) : -1;
  std::ifstream in(stderr_file);
  r.stderr_text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return r;
}

}  // namespace iowall::testing
