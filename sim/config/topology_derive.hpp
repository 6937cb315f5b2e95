// What-if variants of a topology, as edits of its document: every PCIe link at another
// generation (and each switch's preset moved to that generation's part where one exists),
// N drives under each PCIe switch (copies of the drives already there, or the last ones
// taken away), a GPU moved onto a root port of another socket's root complex, N NICs per
// GPU beside each GPU, every drive given another preset. The same edits serve
// `iowall topo derive` and scenarios, whose "topology" may be
//   {"base": "topologies/dgx-h100.json", "derive": {"pcie_gen": 6, "ssds_per_switch": 4,
//    "move": {"gpu3": "socket1"}, "nic_rails": 2, "drive": "micron_9650"}}
// so that a sweep axis such as "/topology/derive/pcie_gen" varies the hardware.
#pragma once
#include <functional>
#include <string>
#include <utility>

#include "sim/core/params.hpp"

namespace iowall {

// Where an edit's key was given, for errors: a file and JSON pointer, or an option.
using DeriveWhere = std::function<std::pair<std::string, std::string>(const std::string& key)>;

// The keys a derive spec may hold, in the order they are applied.
const std::vector<std::string>& derive_keys();

// `base` with the edits of `spec` applied; `base_name` names the base in the result's
// sources. Bad values (an unknown key, a GPU or socket that does not exist, a generation
// the PCIe model does not have, a negative count, an unknown preset) throw InputError at
// `where(key)`.
Json derive_topology(const Json& base, const Json& spec, const std::string& base_name, const DeriveWhere& where);

}  // namespace iowall
