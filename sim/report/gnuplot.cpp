#include "sim/report/gnuplot.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

#include "sim/core/atomic_file.hpp"

namespace iowall {

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

SvgText run_gnuplot_svg(const std::string& script) {
  if (!on_path("gnuplot")) return {"", "gnuplot is not installed: no chart (the tables are complete without it)"};
  // The script goes through a private temporary file: gnuplot reads it, stdout is the SVG.
  std::error_code ec;
  std::string tmp = (std::filesystem::temp_directory_path(ec) / "iowall-chart-XXXXXX").string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return {"", "cannot create a temporary file for gnuplot: no chart"};
  std::size_t done = 0;
  while (done < script.size()) {
    const ssize_t n = ::write(fd, script.data() + done, script.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  std::string svg;
  FILE* p = done == script.size() ? ::popen(("gnuplot '" + tmp + "' 2>/dev/null").c_str(), "r") : nullptr;
  if (p) {
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) svg.append(buf, n);
  }
  const int rc = p ? ::pclose(p) : -1;
  std::remove(tmp.c_str());
  if (rc != 0 || svg.find("<svg") == std::string::npos) return {"", "gnuplot failed: no chart"};
  return {svg, ""};
}

std::string render_svg(const std::string& script, const std::string& svg_path) {
  const SvgText t = run_gnuplot_svg(script);
  if (t.svg.empty()) return t.note;
  write_file_atomically(svg_path, t.svg);
  return svg_path;
}

}  // namespace iowall
