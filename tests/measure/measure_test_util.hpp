// Helpers for the measure tests: a scratch directory that supports O_DIRECT, running
// `iowall measure` through its real CLI definition, and file fingerprints.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "measure/options.hpp"

namespace iowall::measure::testing {

// A fresh directory, removed with everything in it on destruction. It is on a file
// system that accepts O_DIRECT when one can be found (tmpfs often does not).
class ScratchDir {
public:
  ScratchDir();
  ~ScratchDir();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  bool direct_io() const { return direct_; }
  std::vector<std::string> entries() const;

private:
  std::string path_;
  bool direct_ = false;
};

// Parses and runs `iowall measure ARGS...` (args after "measure") in-process, so that
// InputError and RunError reach the caller as exceptions.
void run_cli(const std::vector<std::string>& args);

// FNV-1a of the file's bytes, and its size, to show that something was not written.
std::uint64_t fingerprint(const std::string& path);

// Writes `bytes` of a fixed pattern to a new file.
void make_file(const std::string& path, std::int64_t bytes);

// A short real run of `file`: 2 threads over 4 MiB in 64 KiB I/Os, 4 in flight a thread with
// io_uring (1 with psync), `mode` as -I takes it ("read", "randread", "write").
MeasureOptions small_run(const std::string& file, TransferType x, Engine e, const char* mode);

}  // namespace iowall::measure::testing
