#include "sim/report/report_page.hpp"

#include "sim/report/html.hpp"

namespace iowall::report {
namespace {

const char* const kStyle = R"(<style>
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.facts dt { font-weight: bold; } dl.facts dd { margin: 0; }
figure.chart { margin: 1em 0; } figure.chart svg { width: 100%; height: auto; max-width: 900px; }
figcaption { font-size: 0.9em; color: #444; }
p.nochart, p.warning { background: #fff4d6; border: 1px solid #e0c060; padding: 0.5em; }
p.note { color: #444; font-size: 0.92em; }
</style>
)";

// Runs after the page has loaded. A chart's plot groups that hold legend text are
// legend entries; the others are data series and must have drawn something.
const char* const kSelfCheck = R"(<script>
window.addEventListener('load', function () {
  var problems = [];
  document.querySelectorAll('figure.chart').forEach(function (fig) {
    var svg = fig.querySelector('svg');
    if (!svg) { problems.push(fig.id + ': no svg'); return; }
    var series = 0, legend = 0;
    svg.querySelectorAll('g[id*="gnuplot_plot_"]').forEach(function (g) {
      if (g.querySelector('text')) { legend++; return; }
      series++;
      var drawn = g.querySelectorAll('path, use, rect, circle, polygon, polyline, line');
      var box = drawn.length ? g.getBBox() : null;
      if (!box || (box.width === 0 && box.height === 0)) problems.push(fig.id + ': a data series drew nothing');
    });
    if (series === 0) problems.push(fig.id + ': no data plotted');
    if (legend === 0) problems.push(fig.id + ': no legend');
  });
  document.querySelectorAll('img').forEach(function (img) {
    if (!img.complete || img.naturalWidth === 0) problems.push('image did not load: ' + img.src);
  });
  document.body.dataset.charts = String(document.querySelectorAll('figure.chart').length);
  document.body.dataset.check = problems.length ? 'failed: ' + problems.join('; ') : 'ok';
  if (problems.length) console.error('iowall report self-check failed: ' + problems.join('; '));
});
</script>
)";

}  // namespace

std::string page(const std::string& title, const std::string& body) {
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  s += "<title>" + html::escape(title) + "</title>\n";
  s += kStyle;
  s += "</head>\n<body data-check=\"pending\">\n";
  s += "<h1>" + html::escape(title) + "</h1>\n";
  s += body;
  s += kSelfCheck;
  return s + "</body>\n</html>\n";
}

}  // namespace iowall::report
