// Pieces of the report that any uncertain answer shares (a run's data paths, a plan's
// save, restore and overhead): a chart of nominal values as bars with the median and 90%
// interval as error bars, a tornado chart (each input alone at its 5% and 95% quantile,
// the bar the change of one figure from the nominal answer, largest swing on top), and
// the tables of the uncertain inputs and of the top inputs together.
#pragma once
#include <string>
#include <vector>

#include "sim/report/report_chart.hpp"
#include "sim/report/uncertainty_result.hpp"

namespace iowall::report {

// "median [low .. high]" with `digits` decimals.
std::string interval_cell(const Interval& v, int digits);

// One bar of an interval chart: the nominal answer and its interval over the samples.
struct IntervalBar {
  std::string label;
  double nominal = 0;
  Interval interval;
};
// Bars (the nominal `answer`, "run" or "plan", in `unit`) with error bars (median and 90%
// interval); a <figure>.
std::string interval_chart(const std::string& title, const std::string& xlabel, const std::string& ylabel,
                           const std::string& answer, const std::string& unit, const std::vector<IntervalBar>& bars,
                           const std::string& caption, Charts& charts);

// What a tornado chart ranks: `metric` (a key of the effects) of `subject` (a data path,
// a plan's name), whose nominal answer is `nominal`, said as `nominal_text`.
struct TornadoSubject {
  std::string chart_title;   // the chart's title
  std::string subject;       // the effects' key
  std::string metric;        // the effects' metric key
  std::string metric_words;  // "throughput", "overhead"
  std::string answer;        // what the nominal answer is: "run", "plan"
  double nominal = 0;
  std::string nominal_text;  // "26.90 GB/s"
};
// The tornado <figure>, or a note that no input moves the figure.
std::string tornado_chart(const TornadoSubject& t, const SensitivityResult& sens, Charts& charts);

// The uncertain inputs (label, as written, places, quantiles, distribution, where) and
// the summary's notes.
std::string inputs_table(const UncertaintySummary& u);
// A table of the top inputs of each subject together, all at the ends that lower the
// ranked figure, then all at those that raise it; the figure times `scale`, in `unit`.
std::string combined_table(const SensitivityResult& s, const std::string& subject_header, const std::string& unit,
                           double scale, int digits);

}  // namespace iowall::report
