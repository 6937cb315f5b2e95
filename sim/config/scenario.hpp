// A scenario: topology (a file or inline) + workload + data paths + fidelity + seed
// (+ sweep axes). Loading validates the document and resolves the topology; the
// runner builds a fresh simulation from it for every path.
#pragma once
#include <string>
#include <vector>

#include "sim/config/json_file.hpp"

namespace iowall {

struct PathChoice {
  std::string name;
  std::string label;    // names the path's results; the name unless "label" is given
  Json params;          // the path's parameters (empty object when given by name)
  std::string pointer;  // where in the scenario, for errors
};

struct SweepAxis {
  std::string pointer;       // JSON pointer into the scenario ("/workload/io_size")
  std::vector<Json> values;  // each a JSON value, as it would be written in the file
};

struct Scenario {
  std::string file;  // as given on the command line
  std::string name, description;
  Json doc;                // the whole scenario after --set overrides
  Json topology;           // the topology document
  std::string topology_file;
  std::string topology_pointer;  // "" for a file, "/topology" when inline
  Json workload;
  std::vector<PathChoice> paths;
  std::string fidelity;
  std::uint64_t seed = 1;
  std::vector<SweepAxis> sweep;
};

// Reads and validates a scenario; `overrides` are --set POINTER=VALUE assignments.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});
// The same for a scenario already in memory; `name` stands for the file in messages and
// relative topology references resolve against `directory` ("" for the working one).
Scenario parse_scenario_text(const std::string& text, const std::string& name,
                             const std::vector<std::string>& overrides = {}, const std::string& directory = {});
// Validates an already-parsed scenario document (used for sweep points).
Scenario scenario_from_json(Json doc, const std::string& file, const std::string& directory);

}  // namespace iowall
