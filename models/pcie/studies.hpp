// The PCIe studies behind `iowall pcie`, registered by name (sim/config/study.hpp): the
// effective bandwidth of a DMA stream over one link, from the protocol arithmetic or by
// simulating every TLP and DLLP (pcie_bw), and DMA transfers streamed between two
// devices of a topology at chunk fidelity with the busiest hop (pcie_dma), by a GPU's copy
// engine or its SMs.
#pragma once
#include <string>
#include <vector>

#include "models/pcie/pcie_spec.hpp"
#include "models/pcie/tlp_link_sim.hpp"
#include "sim/config/study.hpp"

namespace iowall::pcie {

struct BandwidthStudy {
  struct Config {
    LinkConfig link;
    Op op = Op::write;
    std::string op_name, method;  // "write"/"read"; "model"/"sim"
    Bytes size;
    TlpSimConfig sim;             // for method "sim"
  };
  struct Result final : StudyResult {
    Config config;
    Bandwidth effective;
    StreamCost cost;              // method "model"
    TlpSimResult sim;             // method "sim"
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

struct DmaStudy {
  struct Config {
    std::string topology, from, to, kind;  // file; device ids; "read" or "write"
    Bytes size;
    i64 count = 64;
    int streams = 2;
    bool copy_engine = true;
    // Who moves the bytes between host memory and a GPU: its copy engine (requests of the
    // links' MRRS) or its SMs (loads and stores of host memory, requests of sm_request).
    std::string initiator = "copy_engine";
    Bytes sm_request;
    i64 sm_read_tags = 256;  // sm reads: requests the GPU keeps outstanding
  };
  struct Result final : StudyResult {
    Config config;
    std::string topology_name, route_text, narrowest_hop, busiest_hop;
    std::vector<std::string> route;  // device ids from source to destination
    double throughput_GBps = 0, busiest_utilization = 0;
    double sm_read_window_GBps = 0;  // sm reads: sm_read_tags x sm_request per round trip
    Time elapsed;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

}  // namespace iowall::pcie
