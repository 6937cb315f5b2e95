#include "sim/report/gnuplot.hpp"

#include <cstdio>
#include <cstdlib>
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

std::string render_svg(const std::string& script, const std::string& svg_path) {
  if (!on_path("gnuplot")) return "gnuplot is not installed: no chart (the tables are complete without it)";
  // gnuplot reads its script from a file beside the chart; the file goes on every way
  // out (a SIGINT sets a flag rather than killing us, so this always runs).
  const std::string tmp = svg_path + ".gp.tmp";
  struct RemoveOnExit {
    const std::string& path;
    ~RemoveOnExit() { std::remove(path.c_str()); }
  } remove_script{tmp};
  write_file_atomically(tmp, script);
  FILE* p = ::popen(("gnuplot '" + tmp + "' 2>/dev/null").c_str(), "r");
  std::string svg;
  if (p) {
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) svg.append(buf, n);
  }
  const int rc = p ? ::pclose(p) : -1;
  if (rc != 0 || svg.find("<svg") == std::string::npos) return "gnuplot failed: no chart";
  write_file_atomically(svg_path, svg);
  return svg_path;
}

}  // namespace iowall
