// `iowall pcie bw`: the effective bandwidth a DMA stream of one transfer size gets
// over one PCIe link, from the protocol arithmetic (`model`) or by simulating every
// TLP and DLLP (`sim`).
#include <charconv>

#include <fmt/format.h>

#include "models/pcie/tlp_link_sim.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/json_limits.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {

struct PcieArgs {
  int gen = 5, lanes = 16;
  i64 mps = 256, mrrs = 512, rcb = 64;
  bool rcb_split = false, ecrc = false;
  std::string size = "4096", op = "write", method = "model";
  std::string latency = "20 ns", completer_latency = "0 ns";
  int tags = 256;
  i64 transfers = 0;
  OutputOptions out;
};

Bytes size_arg(const std::string& text) {
  Bytes b;
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    i64 v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size())
      throw InputError("", "--size", fmt::format("{} bytes is more than this calculator takes (1 TiB)", quote_text(text, 40)));
    b = Bytes(v);
  } else if (const ParseResult r = parse_bytes(text, b); !r.ok) {
    throw InputError("", "--size", r.error);
  }
  if (b.n <= 0) throw InputError("", "--size", "the transfer size must be positive");
  if (b.n > (i64{1} << 40)) throw InputError("", "--size", "a transfer of more than 1 TiB is out of this calculator's range");
  return b;
}

// A one-way latency: at most 1 ms, far beyond any PCIe hop (a switch adds ~100 ns).
Time time_arg(const std::string& text, const char* option) {
  Time t;
  const ParseResult r = parse_time(text, t);
  if (!r.ok) throw InputError("", option, r.error);
  if (t > ms(1)) throw InputError("", option, fmt::format("{} is longer than 1 ms, beyond any PCIe latency", quote_text(text, 40)));
  return t;
}

// The option a LinkConfig check message is about (the message starts with the field).
const char* option_of(const std::string& message) {
  if (message.rfind("Gen", 0) == 0) return "--gen";
  if (message.rfind("MPS", 0) == 0) return "--mps";
  if (message.rfind("MRRS", 0) == 0) return "--mrrs";
  if (message.rfind("RCB", 0) == 0) return "--rcb";
  return "--lanes";
}

void setup(CLI::App& root, CliState&) {
  auto a = std::make_shared<PcieArgs>();
  CLI::App* pcie = root.add_subcommand("pcie", "PCIe calculators");
  pcie->require_subcommand(1);
  CLI::App* bw = pcie->add_subcommand("bw", "effective DMA bandwidth of one link for a transfer size");
  bw->add_option("--gen", a->gen, "PCIe generation 1-6");
  bw->add_option("--lanes", a->lanes, "link width: 1, 2, 4, 8, 12, 16, 32");
  bw->add_option("--mps", a->mps, "max payload size in bytes");
  bw->add_option("--mrrs", a->mrrs, "max read request size in bytes");
  bw->add_option("--rcb", a->rcb, "read completion boundary in bytes (64 or 128)");
  bw->add_flag("--rcb-split", a->rcb_split, "completers split completions at the RCB instead of MPS");
  bw->add_flag("--ecrc", a->ecrc, "end-to-end CRC on every TLP");
  bw->add_option("--size", a->size, "bytes per DMA transfer (e.g. 4096 or \"64 KiB\")");
  bw->add_option("--op", a->op, "write (device writes host memory) or read (device reads host memory)")
      ->check(CLI::IsMember({"read", "write"}));
  bw->add_option("--method", a->method, "model (protocol arithmetic) or sim (TLP-level simulation)")
      ->check(CLI::IsMember({"model", "sim"}));
  bw->add_option("--latency", a->latency, "sim: one-way link latency");
  bw->add_option("--completer-latency", a->completer_latency, "sim: host memory read latency");
  bw->add_option("--tags", a->tags, "sim: requester's outstanding read requests")->check(CLI::Range(1, 4096));
  bw->add_option("--transfers", a->transfers, "sim: transfers to stream (default: 8 MiB worth)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100000000}));
  a->out.add_to(*bw, false);
  bw->callback([a] {
    pcie::LinkConfig c{a->gen, a->lanes, a->mps, a->mrrs, a->rcb, a->rcb_split, a->ecrc};
    if (const std::string err = pcie::check(c); !err.empty()) throw InputError("", option_of(err), err);
    const Bytes size = size_arg(a->size);
    const Time latency = time_arg(a->latency, "--latency");
    const Time completer_latency = time_arg(a->completer_latency, "--completer-latency");
    const pcie::Op op = a->op == "read" ? pcie::Op::read : pcie::Op::write;
    nlohmann::json j = {{"gen", c.gen}, {"lanes", c.lanes}, {"mps", c.mps}, {"mrrs", c.mrrs}, {"size", size.n},
              {"op", a->op}, {"method", a->method},
              {"encoded_Gbps", pcie::encoded_bandwidth(c).Gbps_value()},
              {"tlp_layer_duplex_Gbps", pcie::tlp_layer_bandwidth_duplex(c).Gbps_value()}};
    Bandwidth eff;
    if (a->method == "model") {
      eff = pcie::effective_bandwidth(c, op, size.n);
      const pcie::StreamCost s = pcie::stream_cost(c, op, size.n);
      j["data_tlps_per_transfer"] = s.tlps;
      j["requests_per_transfer"] = s.requests;
    } else {
      pcie::TlpSimConfig sc;
      sc.link = c;
      sc.op = op;
      sc.transfer_size = size.n;
      sc.transfers = a->transfers > 0 ? a->transfers : std::max<i64>(8, (8 << 20) / size.n);
      // Every TLP is an event: bound the simulated bytes (and so the time taken).
      if (static_cast<i128>(sc.transfers) * size.n > (i128{1} << 34))
        throw InputError("", a->transfers > 0 ? "--transfers" : "--size",
                         fmt::format("{} transfers of {} B are more than the 16 GiB a TLP-level simulation takes; "
                                     "use --method model or fewer --transfers",
                                     sc.transfers, size.n));
      sc.latency = latency;
      sc.completer_latency = completer_latency;
      sc.tags = a->tags;
      const pcie::TlpSimResult r = pcie::simulate_stream(sc);
      eff = r.effective;
      j["transfers"] = sc.transfers;
      j["data_tlps"] = r.data_tlps;
      j["requests"] = r.requests;
      j["dllps"] = r.dllps;
      j["skps"] = r.skps;
      j["credit_stalls"] = r.credit_stalls;
      j["elapsed_us"] = r.elapsed.us();
    }
    j["effective_Gbps"] = eff.Gbps_value();
    j["effective_GBps"] = eff.GBps_value();
    emit(a->out,
         [&] {
           return fmt::format("PCIe Gen{} x{} MPS {} MRRS {}: {} DMA {}s of {} B -> {:.2f} Gb/s ({:.3f} GB/s) [{}; "
                              "encoded {:.2f} Gb/s]\n",
                              c.gen, c.lanes, c.mps, c.mrrs, a->method == "sim" ? "simulated" : "modelled", a->op,
                              size.n, eff.Gbps_value(), eff.GBps_value(), a->method,
                              pcie::encoded_bandwidth(c).Gbps_value());
         },
         j);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(35, setup);

}  // namespace iowall
