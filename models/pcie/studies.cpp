// DMA over PCIe: one link's effective bandwidth for a transfer size (protocol arithmetic
// or TLP-level simulation, the requester's DMA engine optionally pacing its transfers), and
// a stream of transfers between two devices of a topology, moved by a GPU's copy engine or
// by its SMs (requests of one L2 line; their reads of host memory bounded by the requests
// the GPU keeps outstanding per round trip).
#include "models/pcie/studies.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "models/gpu/gpu.hpp"
#include "models/host/dram.hpp"
#include "models/pcie/dma_stream.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/quote.hpp"

namespace iowall::pcie {

namespace {

// A transfer size: bytes as a bare integer (4096) or with a unit ("64 KiB"), 1 B to 1 TiB.
Bytes read_size(const Params& p) {
  const std::string text = p.get_text("size", "4096", "bytes per DMA transfer (e.g. 4096 or \"64 KiB\")",
                                      "assumption: a 4 KiB page");
  Bytes b(4096);
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    i64 v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size())
      p.fail("size", fmt::format("{} bytes is more than this calculator takes (1 TiB)", quote_text(text, 40)));
    b = Bytes(v);
  } else if (const ParseResult r = parse_bytes(text, b); !r.ok) {
    p.fail("size", r.error);
  }
  if (!b.is_positive()) p.fail("size", "the transfer size must be positive");
  if (b > Bytes(i64{1} << 40)) p.fail("size", "a transfer of more than 1 TiB is out of this calculator's range");
  return b;
}

// A one-way latency: at most 1 ms, far beyond any PCIe hop (a switch adds ~100 ns).
Time read_latency(const Params& p, const char* key, const char* def, const char* desc, const char* src) {
  const Time t = p.get_time(key, def, desc, src);
  if (t > ms(1)) {
    const auto it = p.json().find(key);
    p.fail(key, fmt::format("{} is longer than 1 ms, beyond any PCIe latency",
                            quote_text(it != p.json().end() ? it->get<std::string>() : def, 40)));
  }
  return t;
}

// The key a LinkConfig check message is about (the message starts with the field).
const char* key_of(const std::string& message) {
  if (message.rfind("Gen", 0) == 0) return "gen";
  if (message.rfind("MPS", 0) == 0) return "mps";
  if (message.rfind("MRRS", 0) == 0) return "mrrs";
  if (message.rfind("RCB", 0) == 0) return "rcb";
  return "lanes";
}

constexpr i64 kWide = i64{1} << 31;  // integer fields are checked by pcie::check

}  // namespace

BandwidthStudy::Config BandwidthStudy::read_config(const Params& p) {
  Config c;
  LinkConfig& l = c.link;
  l.gen = static_cast<int>(p.get_int("gen", 5, -kWide, kWide, "PCIe generation 1-6", "PCIe Base Specification"));
  l.lanes = static_cast<int>(p.get_int("lanes", 16, -kWide, kWide, "link width: 1, 2, 4, 8, 12, 16, 32",
                                       "PCIe Base Specification"));
  l.mps = p.get_int("mps", 256, -kWide, kWide, "max payload size in bytes", "common server setting");
  l.mrrs = p.get_int("mrrs", 512, -kWide, kWide, "max read request size in bytes", "Linux default");
  l.rcb = p.get_int("rcb", 64, -kWide, kWide, "read completion boundary in bytes (64 or 128)", "root complex default");
  l.rcb_split = p.get_bool("rcb_split", false, "completers split completions at the RCB instead of MPS",
                           "PCIe Base Specification 2.3.1.1");
  l.ecrc = p.get_bool("ecrc", false, "end-to-end CRC on every TLP", "PCIe Base Specification 2.7");
  if (const std::string err = check(l); !err.empty()) p.fail(key_of(err), err);
  c.size = read_size(p);
  c.op_name = p.get_choice("op", "write", {"read", "write"},
                           "write (the device writes host memory) or read (the device reads host memory)", "assumption");
  c.op = c.op_name == "read" ? Op::read : Op::write;
  c.method = p.get_choice("method", "model", {"model", "sim"},
                          "model (protocol arithmetic) or sim (TLP-level simulation)", "assumption");
  TlpSimConfig& s = c.sim;
  s.latency = read_latency(p, "latency", "20 ns", "sim: one-way link latency", "assumption: a direct link");
  s.completer_latency = read_latency(p, "completer_latency", "0 ns", "sim: host memory read latency",
                                     "assumption: memory answers at once");
  s.tags = static_cast<int>(p.get_int("tags", 256, 1, 4096, "sim: the requester's outstanding read requests",
                                      "PCIe 10-bit tags; 256 with 8-bit tags"));
  s.engine_interval = read_latency(p, "engine_interval", "0 ns",
                                   "the requesting device's DMA engine starts one transfer at most this often, "
                                   "whatever its size (0: as fast as the link takes them)",
                                   "a property of the device; e.g. the NFP6000's engine: pcie-bench/data "
                                   "bw_dma_sz_sweep (16 and 32 B transfers: 21.0 ns per write, 14.9-15.1 ns per read)");
  const i64 transfers = p.get_int("transfers", 0, 1, 100'000'000, "sim: transfers to stream (default: 8 MiB worth)",
                                  "assumption");
  s.link = l;
  s.op = c.op;
  s.transfer_size = c.size.count();  // the TLP simulator works in plain byte counts
  s.transfers = transfers > 0 ? transfers : std::max<i64>(8, Bytes(8 << 20) / c.size);
  // Every TLP is an event: bound the simulated bytes (and so the time taken) to 16 GiB.
  if (c.method == "sim" && s.transfers > Bytes(i64{1} << 34) / c.size)
    p.fail(transfers > 0 ? "transfers" : "size",
           fmt::format("{} transfers of {} B are more than the 16 GiB a TLP-level simulation takes; "
                       "use --method model or fewer --transfers",
                       s.transfers, c.size.count()));
  return c;
}

BandwidthStudy::Result BandwidthStudy::run(const Config& c, const StudyEnv&) {
  Result r;
  r.config = c;
  if (c.method == "model") {
    // The TLP arithmetic takes plain byte counts.
    r.effective = effective_bandwidth(c.link, c.op, c.size.count());
    r.cost = stream_cost(c.link, c.op, c.size.count());
    // The engine's pacing caps the stream at one transfer per engine_interval.
    if (c.sim.engine_interval.is_positive())
      r.effective = std::min(r.effective, throughput(c.size, c.sim.engine_interval));
  } else {
    r.sim = simulate_stream(c.sim);
    r.effective = r.sim.effective;
  }
  return r;
}

Json BandwidthStudy::Result::to_json() const {
  const LinkConfig& c = config.link;
  // Sizes go out as byte counts.
  Json j = {{"gen", c.gen}, {"lanes", c.lanes}, {"mps", c.mps}, {"mrrs", c.mrrs}, {"size", config.size.count()},
            {"op", config.op_name}, {"method", config.method}, {"encoded_Gbps", encoded_bandwidth(c).Gbps_value()},
            {"tlp_layer_duplex_Gbps", tlp_layer_bandwidth_duplex(c).Gbps_value()}};
  if (config.method == "model") {
    j["data_tlps_per_transfer"] = cost.tlps;
    j["requests_per_transfer"] = cost.requests;
  } else {
    j["transfers"] = config.sim.transfers;
    j["data_tlps"] = sim.data_tlps;
    j["requests"] = sim.requests;
    j["dllps"] = sim.dllps;
    j["skps"] = sim.skps;
    j["credit_stalls"] = sim.credit_stalls;
    j["elapsed_us"] = sim.elapsed.us();
  }
  if (config.sim.engine_interval.is_positive()) j["engine_interval_ns"] = config.sim.engine_interval.ns();
  j["effective_Gbps"] = effective.Gbps_value();
  j["effective_GBps"] = effective.GBps_value();
  return j;
}

std::string BandwidthStudy::Result::to_text() const {
  const LinkConfig& c = config.link;
  // The size goes out as a byte count.
  return fmt::format("PCIe Gen{} x{} MPS {} MRRS {}: {} DMA {}s of {} B -> {:.2f} Gb/s ({:.3f} GB/s) [{}; "
                     "encoded {:.2f} Gb/s]\n",
                     c.gen, c.lanes, c.mps, c.mrrs, config.method == "sim" ? "simulated" : "modelled", config.op_name,
                     config.size.count(), effective.Gbps_value(), effective.GBps_value(), config.method,
                     encoded_bandwidth(c).Gbps_value());
}

IOWALL_REGISTER_STUDY(BandwidthStudy, "pcie_bw", "effective DMA bandwidth of one PCIe link for a transfer size");

DmaStudy::Config DmaStudy::read_config(const Params& p) {
  Config c;
  c.topology = p.get_text("topology", "", "topology JSON file", "the user's topology");
  c.from = p.get_text("from", "", "source device id", "the user's topology");
  c.to = p.get_text("to", "", "destination device id", "the user's topology");
  c.size = p.get_bytes("size", "16 MiB", "bytes per transfer", "assumption: a large copy-engine transfer");
  c.count = p.get_int("count", 64, 1, 10'000'000, "transfers in all", "assumption");
  c.streams = static_cast<int>(p.get_int("streams", 2, 1, 4096, "transfers in flight at a time",
                                         "assumption: double buffering"));
  c.kind = p.get_choice("kind", "read", {"read", "write"},
                        "read (the destination pulls: completions) or write (posted writes)", "assumption");
  c.copy_engine = p.get_bool("copy_engine", true, "charge a GPU copy engine for host<->GPU copies",
                             "cudaMemcpy runs on a copy engine");
  c.initiator = p.get_choice("initiator", "copy_engine", {"copy_engine", "sm"},
                             "who moves a host<->GPU copy: copy_engine (cudaMemcpy: read requests of the links' "
                             "MRRS, the engine's hop) or sm (a kernel's loads or stores of pinned host memory: "
                             "requests and posted writes of sm_request bytes on every PCIe link of the route)",
                             "nvbandwidth: *_memcpy_ce uses memcpy APIs, *_memcpy_sm a copy kernel");
  c.sm_request = p.get_bytes("sm_request", "128 B",
                             "sm: bytes per PCIe request the SMs' host loads and stores make (128 B to 4 KiB, a "
                             "power of two)",
                             "assumption: a warp's 16 B-per-thread access coalesces into 128 B L2 lines, each one "
                             "request; reports/calibration/gpu-machine/sm-copies (H200: SM 50.7-52.4 GB/s against "
                             "the copy engine's 54.5-55.3)");
  c.sm_read_tags = p.get_int("sm_read_tags", 256, 1, 4096,
                             "sm reads: read requests the GPU keeps outstanding; a read of host memory then moves "
                             "at most sm_read_tags x sm_request per round trip of the route",
                             "PCIe Base Specification: an 8-bit Tag field allows 256 outstanding non-posted "
                             "requests per function (10-bit tags 768); assumption: the SMs' reads use that space");
  if (p.describing()) return c;
  if (c.topology.empty()) p.fail("topology", "a topology file is needed");
  if (!valid_request_size(c.sm_request.count()))
    p.fail("sm_request", fmt::format("{} is not a power of two from 128 B to 4 KiB", to_string(c.sm_request)));
  return c;
}

DmaStudy::Result DmaStudy::run(const Config& c, const StudyEnv& env) {
  JsonDocument doc = load_json(c.topology);
  for (const auto& s : env.overrides) apply_override(doc.json, s, c.topology);
  // SM copies: every PCIe link carries the SMs' requests (reads of sm_request bytes,
  // posted writes of at most that much per TLP).
  if (c.initiator == "sm" && doc.json.contains("links"))
    for (Json& link : doc.json["links"])
      if (link.is_object() && link.contains("pcie") && link["pcie"].is_object()) {
        Json& pcie = link["pcie"];
        pcie["mrrs"] = to_string(c.sm_request);
        Bytes mps(LinkConfig{}.mps);  // a link's default MPS
        if (pcie.contains("mps") && pcie["mps"].is_string()) (void)parse_bytes(pcie["mps"].get<std::string>(), mps);
        if (mps > c.sm_request) pcie["mps"] = to_string(c.sm_request);
      }
  SimContext ctx(1);
  Topology topo(ctx, doc.json, doc.name);
  Device& from = topo.device(c.from, "", "--from");
  Device& to = topo.device(c.to, "", "--to");
  // SM copies: a GPU's kernel reads host memory into it (read) or writes its own memory
  // out to host memory (write).
  if (c.initiator == "sm") {
    const bool h2d = c.kind == "read" && dynamic_cast<Dram*>(&from) && dynamic_cast<Gpu*>(&to);
    const bool d2h = c.kind == "write" && dynamic_cast<Gpu*>(&from) && dynamic_cast<Dram*>(&to);
    if (!h2d && !d2h)
      throw InputError("", "--initiator",
                       fmt::format("sm copies run from host memory into a GPU (--kind read) or from a GPU into host "
                                   "memory (--kind write): {} -> {} by {} is neither",
                                   c.from, c.to, c.kind));
  }
  Route route = topo.route(from, to);
  // Host memory's shared access hop at either end, and the GPU's copy engine when a
  // GPU pulls or pushes host memory (cudaMemcpy).
  if (auto* d = dynamic_cast<Dram*>(&from)) route.hops.insert(route.hops.begin(), d->access_hop());
  if (auto* d = dynamic_cast<Dram*>(&to)) route.hops.push_back(d->access_hop());
  const bool host_copy = dynamic_cast<Dram*>(&from) || dynamic_cast<Dram*>(&to);
  Gpu* gpu = dynamic_cast<Gpu*>(&to) ? dynamic_cast<Gpu*>(&to) : dynamic_cast<Gpu*>(&from);
  if (c.initiator == "copy_engine" && c.copy_engine && host_copy && gpu)
    route.hops.insert(route.hops.begin(), gpu->copy_engine_hop());
  RouteMover mover(ctx);
  DmaStream stream(mover, route, c.size, c.count, c.kind == "read" ? DmaKind::read : DmaKind::write);
  stream.start(c.streams);
  ctx.run();
  Result r;
  r.config = c;
  r.topology_name = topo.name();
  r.route = route.devices;
  r.route_text = route.describe();
  r.throughput_GBps = gb_per_s(c.size * c.count, ctx.now());
  r.elapsed = ctx.now();
  const Hop* narrow = route.narrowest(c.size);
  r.narrowest_hop = narrow ? narrow->label : "";
  // SM reads of host memory are non-posted: each of the GPU's sm_read_tags requests is
  // outstanding for a round trip (the request out along the route, its completion back),
  // so they move at most sm_read_tags x sm_request per round trip (Little's law).
  if (c.initiator == "sm" && c.kind == "read") {
    const Time round_trip = route.latency() * 2;
    const Bandwidth window = throughput(c.sm_request * c.sm_read_tags, std::max(round_trip, Time(1)));
    r.sm_read_window_GBps = window.GBps_value();
    if (r.sm_read_window_GBps < r.throughput_GBps) {
      r.throughput_GBps = r.sm_read_window_GBps;
      r.elapsed = transfer_time(c.size * c.count, window);
      r.narrowest_hop = fmt::format("{} SM reads in flight ({} x {} per {:.0f} ns round trip)", c.to, c.sm_read_tags,
                                    to_string(c.sm_request), round_trip.ns());
    }
  }
  r.busiest_utilization = -1;
  for (const Hop& h : route.hops) {
    const double u = h.server->utilization(Time(0), ctx.now());
    if (u > r.busiest_utilization) {
      r.busiest_utilization = u;
      r.busiest_hop = h.label;
    }
  }
  return r;
}

Json DmaStudy::Result::to_json() const {
  const Config& c = config;
  // The size goes out as a byte count.
  Json j = {{"topology", topology_name},  {"from", c.from},          {"to", c.to},
            {"size", c.size.count()},     {"count", c.count},        {"streams", c.streams},
            {"kind", c.kind},             {"route", route},          {"throughput_GBps", throughput_GBps},
            {"elapsed_us", elapsed.us()}, {"narrowest_hop", narrowest_hop},
            {"busiest_hop", busiest_hop}, {"busiest_utilization", busiest_utilization}};
  // Copy-engine results keep their shape; an SM copy says so, with its request size.
  if (c.initiator == "sm") {
    j["initiator"] = c.initiator;
    j["sm_request"] = c.sm_request.count();
    if (c.kind == "read") j["sm_read_window_GBps"] = sm_read_window_GBps;
  }
  return j;
}

std::string DmaStudy::Result::to_text() const {
  const Config& c = config;
  return fmt::format("{} -> {} ({}), {} x {} DMA {}s, {} in flight: {:.2f} GB/s; busiest hop {} ({:.0f}%)\n", c.from,
                     c.to, route_text, c.count, to_string(c.size), c.kind, c.streams, throughput_GBps, busiest_hop,
                     busiest_utilization * 100);
}

IOWALL_REGISTER_STUDY(DmaStudy, "pcie_dma", "DMA transfers streamed between two devices of a topology (chunk fidelity)");

}  // namespace iowall::pcie
