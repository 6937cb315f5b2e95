// The uncertain inputs of a scenario: every quantity written with its uncertainty
// ("14 GB/s +- 5%", "92 us .. 150 us", sim/core/uncertain.hpp) in the topology (devices,
// their child components, links, and the values a device's preset supplies), the
// workload and the data paths' parameters. Every place that gives the same parameter the
// same uncertain text is one unknown, drawn once per sample (eight drives of one preset
// are one uncertain drive model, not eight independent ones). A sample is the scenario
// with each unknown replaced by a value; sample i's value of an unknown depends only on
// the seed, i and the unknown's parameter name and text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/core/uncertain.hpp"

namespace iowall {

struct UncertainInput {
  std::string name;           // the parameter
  std::string text;           // as written
  std::string label;          // for people: "pm1743.read_bandwidth", "nvme0.read_latency", "workload.io_size"
  std::string file, pointer;  // the first place it is given
  std::size_t places = 0;
  Uncertain u;
};

// The scenario's unknowns, ordered by parameter name and text. A value with the syntax
// of an uncertainty that does not parse is an InputError at its file and pointer.
std::vector<UncertainInput> uncertain_inputs(const Scenario& sc);

// The scenario with unknown k set to values[k] (base units of its kind) everywhere it is
// given; `values` holds one value per input of `inputs`.
Scenario with_values(const Scenario& sc, const std::vector<UncertainInput>& inputs, const std::vector<i64>& values);

// The uniform number in (0, 1) at which `in` is drawn in sample `i`.
double sample_uniform(std::uint64_t seed, std::size_t i, const UncertainInput& in);
// Sample i's values of every input.
std::vector<i64> sample_values(std::uint64_t seed, std::size_t i, const std::vector<UncertainInput>& inputs);
// Every input at its nominal value.
std::vector<i64> nominal_values(const std::vector<UncertainInput>& inputs);

}  // namespace iowall
