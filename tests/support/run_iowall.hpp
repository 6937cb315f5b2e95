// Runs the real `iowall` executable from a test: exit code, stdout and stderr.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace iowall::testing {

struct CliResult {
  int code = -1;
  std::string out, err;
  std::string output() const { return out + err; }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `launcher` goes before the binary (an mpirun command line, say).
inline CliResult run_iowall(const std::string& args, const std::string& launcher = "") {
  static int n = 0;
  const std::string base = "/tmp/iowall_test_" + std::to_string(getpid()) + "_" + std::to_string(n++);
  const std::string cmd = launcher + std::string(IOWALL_BINARY) + " " + args + " >" + base + ".out 2>" + base + ".err";
  const int status = std::system(cmd.c_str());
  CliResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(base + ".out"), slurp(base + ".err")};
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

}  // namespace iowall::testing
