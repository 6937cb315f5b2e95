#include "sim/report/run_chart.hpp"

#include <fmt/format.h>

#include "sim/report/gnuplot.hpp"

namespace iowall {

std::string run_chart_script(const nlohmann::json& r) {
  std::string data;
  for (const auto& name : r.at("paths")) {
    const auto& m = r.at("metrics").at(name.get<std::string>());
    data += fmt::format("\"{}\" {:.6g} {:.6g}\n", name.get<std::string>(), m["throughput_GBps"].get<double>(),
                        m["cpu_cores_busy"].get<double>());
  }
  return fmt::format(
      "set terminal svg size 800,450 dynamic font 'sans,12'\n"
      "set title \"{}: throughput and CPU cores per data path ({} fidelity)\" noenhanced\n"
      "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
      "set boxwidth 0.9\nset grid ytics\nset ylabel \"throughput (GB/s)\"\nset y2label \"CPU cores busy\"\n"
      "set yrange [0:*]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\nset key top right\n"
      "$d << EOD\n{}EOD\n"
      "plot $d using 2:xtic(1) title 'throughput (GB/s)' axes x1y1, '' using 3 title 'CPU cores busy' axes x1y2\n",
      r.at("scenario").get<std::string>(), r.at("fidelity").get<std::string>(), data);
}

std::string render_run_chart(const nlohmann::json& result, const std::string& svg_path) {
  return render_svg(run_chart_script(result), svg_path);
}

}  // namespace iowall
