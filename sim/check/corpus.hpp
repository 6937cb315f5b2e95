// The validation corpus: published figures, each with the document it comes from, the
// conditions it was measured under, and how iowall reproduces it (a scenario run, a
// checkpoint-planner question or a study). One JSON file per source under validation/;
// every figure carries its unit, every source its document and conditions, and a
// case names a scenario or plan file that exists. Parameters of the scenarios and
// topologies come from their own sources, never from the figure they are checked
// against (validation/README.md).
#pragma once
#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace iowall::check {

// What a published figure measures, and so the unit it must carry.
enum class Dimension { bandwidth, rate, time, bytes, count };
const char* name(Dimension d);

// A published (or simulated) value in SI units: B/s, 1/s, s, B, or a plain count.
struct Quantity {
  double si = 0;
  Dimension dim = Dimension::count;
};
// Parses a figure as written in a corpus file: "6.52 GiB/s", "24468 IOPS", "1.52 MIOPS",
// "163 us", "105 GB", "0.8 cores". Throws InputError(file, pointer) when the text has no
// unit, a unit of another dimension, or is not a positive finite number.
Quantity parse_figure(const std::string& text, Dimension expected, const std::string& file, const std::string& pointer);
// The value in the unit people read for its dimension ("6.52 GiB/s" is shown as GB/s).
std::string format_quantity(const Quantity& q);

// What a case reads from its reproduction.
enum class Metric {
  throughput, iops, latency_mean, latency_p50, latency_p99, cpu_cores, done,  // a scenario path's
  checkpoint_bytes, save_time, restore_time,                                 // the planner's
  study                                                                      // a study's named value
};
const char* name(Metric m);
Dimension dimension_of(Metric m);

// How a case is reproduced.
struct Reproduction {
  enum class Kind { scenario, plan, study } kind = Kind::scenario;
  std::string file;      // scenario or plan file, as resolvable by load_scenario / load_json
  Json set = Json::object();  // {pointer: value} overrides applied to it
  std::string path;      // scenario: the path (label) whose metrics are read
  std::string study;     // study: its registered name
  Json params = Json::object();  // study: its parameters
  std::string value;     // study: the result field read (its unit from its name: _GBps, _us, ...)
  JsonLocation where;    // study: where its params are, for errors
  // One simulation serves every case with the same key.
  std::string key() const;
};

struct Case {
  std::string id;       // unique within its source
  std::string figure;   // what the document shows, in words
  std::string published_text;
  Quantity published;
  Metric metric = Metric::throughput;
  Reproduction run;
  std::string note;     // an assumption or caveat for this point
  std::string pointer;  // where in the corpus file, for messages
};

struct Source {
  std::string id;       // the file's stem
  std::string file;
  std::string title, publisher, url, where;
  int year = 0;
  std::string hardware, software;
  std::vector<std::string> assumed;  // conditions the document does not state
  std::vector<Case> cases;
};

struct Corpus {
  std::vector<Source> sources;
  std::size_t points() const;
};

// Reads every *.json file of `folder` (sorted by name), or only `only` when given (a
// source id). Throws InputError naming the file and JSON pointer for anything missing
// or malformed, and for a case id used twice in a source.
Corpus load_corpus(const std::string& folder, const std::string& only = {});
// One corpus file from text (`name` stands for the file in messages).
Source parse_source(const std::string& text, const std::string& name, const std::string& id);

}  // namespace iowall::check
