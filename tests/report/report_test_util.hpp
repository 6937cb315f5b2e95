// Shared by the report tests: a private scratch folder, small results made by the
// real binary, and checks on the HTML they produce.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "tests/support/run_iowall.hpp"

namespace iowall::testing {

// A fresh folder under the system's temporary directory, one per test process and name.
inline std::string scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("iowall_report_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Two data paths on the workstation topology: small enough to run in well under a second.
inline const char* tiny_scenario() {
  return R"({
  "name": "tiny-report", "topology": "topologies/workstation-gen5.json",
  "workload": {"kind": "sequential_read", "size": "64 MiB", "io_size": "1 MiB", "threads": 4,
               "targets": "gpu0", "storage": "nvme0,nvme1"},
  "paths": ["gpu_direct", "cpu_gpu"], "seed": 5})";
}

inline std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}

// Files in `dir` (to find temporary files left behind).
inline std::size_t files_in(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace iowall::testing
