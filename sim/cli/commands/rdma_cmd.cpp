// `iowall rdma reg|mtt|crossover`: memory registration cost, per I/O or persistent,
// seed 001's Registration Efficiency Ratio, the I/O at which persistent GPU
// registration overtakes per-I/O host registration, and HCA translation-cache thrashing.
#include <sstream>

#include <fmt/format.h>

#include "models/rdma/registration.hpp"
#include "models/rdma/translation_cache.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/option_values.hpp"
#include "sim/cli/output.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {

using rdma::MemoryKind;

Bandwidth bw_arg(const std::string& text, const char* option) {
  Bandwidth b;
  const ParseResult r = parse_bandwidth(text, b);
  if (!r.ok) throw InputError("", option, r.error);
  if (b.bps <= 0) throw InputError("", option, "must be positive");
  return b;
}

// Model parameters given as flags travel as JSON so that Params checks their units
// and records their sources exactly as a topology file would.
struct Overrides {
  std::string fixed, per_page, page_size, dereg_per_page, capacity;
  std::string prefix;
  void add_to(CLI::App& c, const std::string& option_prefix = "") {
    prefix = option_prefix;
    c.add_option("--" + prefix + "fixed", fixed, "fixed registration cost (e.g. \"10 us\")");
    c.add_option("--" + prefix + "per-page", per_page, "cost per page (e.g. \"390 ns\")");
    c.add_option("--" + prefix + "page-size", page_size, "page size (e.g. \"4 KiB\")");
    c.add_option("--" + prefix + "dereg-per-page", dereg_per_page, "deregistration cost per page");
    c.add_option("--" + prefix + "capacity", capacity, "memory of this kind that exists (e.g. \"2 TiB\")");
  }
  rdma::RegistrationCost cost(MemoryKind kind, const std::string& where) const {
    Json j = Json::object();
    if (!fixed.empty()) j["fixed"] = fixed;
    if (!per_page.empty()) j["per_page"] = per_page;
    if (!page_size.empty()) j["page_size"] = page_size;
    if (!dereg_per_page.empty()) j["dereg_per_page"] = dereg_per_page;
    if (!capacity.empty()) j["capacity"] = capacity;
    return read_as_options([&] { return rdma::RegistrationCost::read(Params(j, {where, ""}), kind); }, prefix);
  }
};

struct RegArgs {
  std::string size = "1 GB", memory = "host", io_size = "1 MiB", link = "100 Gb/s";
  bool per_io = false, persistent = false;
  i64 ios = 1;
  Overrides o;
  OutputOptions out;
};

void run_reg(const RegArgs& a) {
  const MemoryKind kind = rdma::memory_kind_from_name(a.memory);
  const rdma::RegistrationCost cost = a.o.cost(kind, "iowall rdma reg");
  rdma::RegistrationRun run{positive_bytes_option(a.size, "--size"), positive_bytes_option(a.io_size, "--io-size"), bw_arg(a.link, "--link"),
                            a.ios, !a.persistent};
  const rdma::RegistrationResult r = rdma::simulate_registration(cost, run);
  const rdma::RegistrationResult whole =
      rdma::simulate_registration(cost, {run.buffer, run.buffer, run.link, 1, false});
  const Json j = {{"memory", a.memory},
                  {"mode", run.per_io ? "per-io" : "persistent"},
                  {"buffer", to_string(run.buffer)},
                  {"io_size", to_string(run.io_size)},
                  {"link", to_string(run.link)},
                  {"ios", run.ios},
                  {"page_size", to_string(cost.page_size)},
                  {"buffer_pages", cost.pages(run.buffer)},
                  {"buffer_registration_us", whole.t_reg.us()},
                  {"pages_per_registration", r.pages_per_registration},
                  {"registration_us", r.t_reg.us()},
                  {"deregistration_us", r.t_dereg.us()},
                  {"transfer_us", r.t_transfer.us()},
                  {"total_us", r.total.us()},
                  {"efficiency_ratio", r.efficiency},
                  {"effective_Gbps", r.effective_Gbps}};
  emit(a.out,
       [&] {
         return fmt::format(
             "{} memory, {} pages of {}: registering the {} buffer takes {:.1f} us\n"
             "{} x {} I/O at {}, registration {}: T_reg {:.1f} us, T_transfer {:.1f} us, total {:.1f} us\n"
             "Registration Efficiency Ratio R = {:.3f}; effective {:.2f} Gb/s\n",
             a.memory, cost.pages(run.buffer), to_string(cost.page_size), to_string(run.buffer), whole.t_reg.us(),
             run.ios, to_string(run.io_size), to_string(run.link), run.per_io ? "per I/O" : "persistent", r.t_reg.us(),
             r.t_transfer.us(), r.total.us(), r.efficiency, r.effective_Gbps);
       },
       j);
}

struct CrossArgs {
  std::string io_size = "1 MiB", buffers = "1 MB,4 MB,16 MB,64 MB,256 MB";
  Overrides host, gpu;
  OutputOptions out;
};

void run_crossover(const CrossArgs& a) {
  const auto host = a.host.cost(MemoryKind::host, "iowall rdma crossover (host)");
  const auto gpu = a.gpu.cost(MemoryKind::gpu, "iowall rdma crossover (gpu)");
  const Bytes io = positive_bytes_option(a.io_size, "--io-size");
  Json rows = Json::array();
  std::string text = fmt::format("host registration per {} I/O: {:.1f} us\n", to_string(io), host.reg_time(io).us());
  std::stringstream ss(a.buffers);
  for (std::string item; std::getline(ss, item, ',');) {
    const Bytes b = positive_bytes_option(item, "--buffers");
    const i64 n = rdma::crossover_io(host, gpu, b, io);
    rows.push_back({{"buffer", to_string(b)}, {"gpu_registration_us", gpu.reg_time(b).us()}, {"crossover_io", n}});
    text += fmt::format("GPU buffer {:>10}: registered once in {:9.1f} us; persistent GPU ahead from I/O {}\n",
                        to_string(b), gpu.reg_time(b).us(), n);
  }
  emit(a.out, [&] { return text; },
       {{"io_size", to_string(io)}, {"host_registration_per_io_us", host.reg_time(io).us()}, {"buffers", rows}});
}

struct MttArgs {
  i64 workers = 64, rounds = 16, entries = 128, mtt_per_line = 8;
  std::string buffer = "1 MiB", memory = "host", miss = "1 us", order = "cyclic";
  std::uint64_t seed = 1;
  OutputOptions out;
};

void run_mtt(const MttArgs& a) {
  const MemoryKind kind = rdma::memory_kind_from_name(a.memory);
  const rdma::RegistrationCost cost = rdma::RegistrationCost::read(Params(Json::object(), {"", ""}), kind);
  const Json cj = {{"entries", a.entries}, {"mtt_per_line", a.mtt_per_line}, {"miss_penalty", a.miss}};
  const auto cache = read_as_options([&] { return rdma::TranslationCacheConfig::read(Params(cj, {"iowall rdma mtt", ""})); },
                                     "", {{"miss_penalty", "miss"}});
  const rdma::MttWorkload w{a.workers, positive_bytes_option(a.buffer, "--buffer"), cost.page_size, a.rounds,
                            a.order == "random", a.seed};
  const rdma::MttResult r = rdma::simulate_mtt(cache, w);
  const Json j = {{"memory", a.memory}, {"workers", a.workers}, {"order", a.order}, {"buffer", to_string(w.buffer)},
                  {"page_size", to_string(cost.page_size)}, {"cache_lines", cache.entries},
                  {"lines_per_io", r.lines_per_io}, {"live_lines", r.live_lines}, {"hit_rate", r.hit_rate},
                  {"misses_per_round", r.misses_per_round}, {"overhead_per_round_us", r.overhead_per_round.us()}};
  emit(a.out,
       [&] {
         return fmt::format(
             "{} workers x {} {} buffer ({} pages): {} translation lines per I/O, {} live vs {} cached\n"
             "hit rate {:.1f}%, {:.0f} misses per round, {:.1f} us of translation reads per round\n",
             a.workers, to_string(w.buffer), a.memory, cost.pages(w.buffer), r.lines_per_io, r.live_lines,
             cache.entries, 100 * r.hit_rate, r.misses_per_round, r.overhead_per_round.us());
       },
       j);
}

void setup(CLI::App& root, CliState&) {
  CLI::App* rdma = root.add_subcommand("rdma", "RDMA HCA calculators: registration, translation cache");
  rdma->require_subcommand(1);

  auto ra = std::make_shared<RegArgs>();
  CLI::App* reg = rdma->add_subcommand("reg", "memory registration cost and Registration Efficiency Ratio");
  reg->add_option("--size", ra->size, "buffer size (e.g. \"1 GB\")");
  reg->add_option("--memory", ra->memory, "host or gpu")->check(CLI::IsMember({"host", "gpu"}));
  reg->add_option("--io-size", ra->io_size, "bytes per I/O");
  reg->add_option("--link", ra->link, "link rate (e.g. \"100 Gb/s\")");
  reg->add_option("--ios", ra->ios, "I/Os from the buffer")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  auto* per_io = reg->add_flag("--per-io", ra->per_io, "register and deregister around every I/O (default)");
  reg->add_flag("--persistent", ra->persistent, "register the buffer once")->excludes(per_io);
  ra->o.add_to(*reg);
  ra->out.add_to(*reg, false);
  reg->callback([ra] { run_reg(*ra); });

  auto ca = std::make_shared<CrossArgs>();
  CLI::App* cross = rdma->add_subcommand("crossover", "I/O at which persistent GPU registration beats per-I/O host");
  cross->add_option("--io-size", ca->io_size, "bytes per I/O");
  cross->add_option("--buffers", ca->buffers, "comma-separated GPU buffer sizes");
  ca->host.add_to(*cross, "host-");
  ca->gpu.add_to(*cross, "gpu-");
  ca->out.add_to(*cross, false);
  cross->callback([ca] { run_crossover(*ca); });

  auto ma = std::make_shared<MttArgs>();
  CLI::App* mtt = rdma->add_subcommand("mtt", "HCA translation cache hit rate with many live buffers");
  mtt->add_option("--workers", ma->workers, "workers, one registered buffer each")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  mtt->add_option("--buffer", ma->buffer, "each worker's buffer, read whole by each I/O");
  mtt->add_option("--memory", ma->memory, "host (4 KiB pages) or gpu (64 KiB pages)")
      ->check(CLI::IsMember({"host", "gpu"}));
  mtt->add_option("--entries", ma->entries, "translation lines the HCA caches");
  mtt->add_option("--mtt-per-line", ma->mtt_per_line, "MTT entries per fetched line");
  mtt->add_option("--miss", ma->miss, "PCIe read round trip per miss (e.g. \"1 us\")");
  mtt->add_option("--order", ma->order, "cyclic (each worker in turn) or random")
      ->check(CLI::IsMember({"cyclic", "random"}));
  add_seed_option(*mtt, ma->seed, "random seed for --order random");
  mtt->add_option("--rounds", ma->rounds, "rounds of one I/O per worker (first one warms up)")
      ->check(CLI::Range(std::int64_t{2}, std::int64_t{1} << 20));
  ma->out.add_to(*mtt, false);
  mtt->callback([ma] { run_mtt(*ma); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(37, setup);

}  // namespace iowall
