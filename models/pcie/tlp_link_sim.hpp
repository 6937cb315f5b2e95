// A TLP-level simulation of one PCIe link carrying a DMA stream: every TLP, ACK and
// UpdateFC DLLP and SKP ordered set is sent by a serial transmitter per direction;
// posted and non-posted credits gate the transmitter and come back in UpdateFC
// DLLPs; a requester's read tags bound its outstanding reads. This is the `tlp`
// fidelity that the chunk model and the protocol arithmetic are checked against.
#pragma once
#include "models/pcie/pcie_spec.hpp"

namespace iowall::pcie {

struct TlpSimConfig {
  LinkConfig link;
  Op op = Op::write;
  i64 transfer_size = 4096;  // bytes of one DMA transfer
  i64 transfers = 256;       // transfers issued back to back
  Time latency = ns(20);     // one-way link latency (propagation, PHY)
  Time completer_latency{};  // host memory's time to answer a read request
  int tags = 256;            // requester's outstanding read requests
  Time engine_interval{};    // the requester's DMA engine starts a transfer at most this often (0: no limit)
  i64 posted_header_credits = 64, posted_data_credits = 1024;  // receiver buffer (data in 16 B units)
  i64 nonposted_header_credits = 64;
};

struct TlpSimResult {
  Time elapsed;
  i64 payload = 0;
  i64 data_tlps = 0, requests = 0, dllps = 0, skps = 0;
  i64 data_dir_bytes = 0, rev_dir_bytes = 0;
  i64 credit_stalls = 0;  // times the transmitter waited for credits
  Bandwidth effective;    // payload over elapsed time
};

TlpSimResult simulate_stream(const TlpSimConfig& config);

}  // namespace iowall::pcie
