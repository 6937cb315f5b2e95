#include "sim/report/run_chart.hpp"

#include <fmt/format.h>

#include "sim/report/gnuplot.hpp"

namespace iowall {

std::string run_chart_script(const RunResult& r) {
  std::string data;
  for (const PathResult& p : r.paths)
    data += fmt::format("\"{}\" {:.6g} {:.6g}\n", p.label, p.metrics.throughput_GBps, p.metrics.cpu_cores_busy);
  return fmt::format(
      "set terminal svg size 800,450 dynamic font 'sans,12'\n"
      "set title \"{}: throughput and CPU cores per data path ({} fidelity)\" noenhanced\n"
      "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
      "set boxwidth 0.9\nset grid ytics\nset ylabel \"throughput (GB/s)\"\nset y2label \"CPU cores busy\"\n"
      "set yrange [0:*]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\nset key top right\n"
      "$d << EOD\n{}EOD\n"
      "plot $d using 2:xtic(1) title 'throughput (GB/s)' axes x1y1, '' using 3 title 'CPU cores busy' axes x1y2\n",
      r.scenario, r.fidelity, data);
}

std::string render_run_chart(const RunResult& result, const std::string& svg_path) {
  return render_svg(run_chart_script(result), svg_path);
}

}  // namespace iowall
