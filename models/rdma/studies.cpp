// Registration cost per I/O or persistent, the host/GPU crossover, and translation-cache
// thrashing: the RDMA studies, each reading its parameters with their sources.
#include "models/rdma/studies.hpp"

#include <sstream>

#include <fmt/format.h>

namespace iowall::rdma {

namespace {
MemoryKind read_memory(const Params& p, std::string& name, const std::string& desc) {
  name = p.get_choice("memory", "host", {"host", "gpu"}, desc, "4 KiB x86-64 pages; 64 KiB GPUDirect RDMA pages");
  return memory_kind_from_name(name);
}
}  // namespace

RegStudy::Config RegStudy::read_config(const Params& p) {
  Config c;
  const MemoryKind kind = read_memory(p, c.memory, "host or gpu memory");
  c.cost = RegistrationCost::read(p, kind);
  RegistrationRun& r = c.run;
  r.buffer = p.get_bytes("size", "1 GB", "buffer size", "seed 001's example buffer");
  r.io_size = p.get_bytes("io_size", "1 MiB", "bytes per I/O", "assumption: a typical large RDMA transfer");
  r.link = p.get_bandwidth("link", "100 Gb/s", "link rate", "100GbE / HDR100");
  r.ios = p.get_int("ios", 1, 1, i64{1} << 40, "I/Os from the buffer", "assumption");
  r.per_io = !p.get_bool("persistent", false, "register the buffer once instead of around every I/O",
                         "seed 001: per-I/O against persistent registration");
  if (r.buffer > c.cost.capacity)
    p.fail("size", fmt::format("cannot register {}: only {} of this memory exists", to_string(r.buffer),
                               to_string(c.cost.capacity)));
  if (r.io_size > r.buffer) p.fail("io_size", "the I/O size is larger than the buffer it is read into");
  return c;
}

RegStudy::Result RegStudy::run(const Config& c, const StudyEnv&) {
  Result res;
  res.config = c;
  res.r = simulate_registration(c.cost, c.run);
  res.whole = simulate_registration(c.cost, {c.run.buffer, c.run.buffer, c.run.link, 1, false});
  return res;
}

Json RegStudy::Result::to_json() const {
  const RegistrationRun& run = config.run;
  const RegistrationCost& cost = config.cost;
  return {{"memory", config.memory},
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
}

std::string RegStudy::Result::to_text() const {
  const RegistrationRun& run = config.run;
  const RegistrationCost& cost = config.cost;
  return fmt::format(
      "{} memory, {} pages of {}: registering the {} buffer takes {:.1f} us\n"
      "{} x {} I/O at {}, registration {}: T_reg {:.1f} us, T_transfer {:.1f} us, total {:.1f} us\n"
      "Registration Efficiency Ratio R = {:.3f}; effective {:.2f} Gb/s\n",
      config.memory, cost.pages(run.buffer), to_string(cost.page_size), to_string(run.buffer), whole.t_reg.us(),
      run.ios, to_string(run.io_size), to_string(run.link), run.per_io ? "per I/O" : "persistent", r.t_reg.us(),
      r.t_transfer.us(), r.total.us(), r.efficiency, r.effective_Gbps);
}

IOWALL_REGISTER_STUDY(RegStudy, "rdma_reg", "memory registration cost and the Registration Efficiency Ratio");

CrossoverStudy::Config CrossoverStudy::read_config(const Params& p) {
  Config c;
  c.host = RegistrationCost::read(p, MemoryKind::host, "host_");
  c.gpu = RegistrationCost::read(p, MemoryKind::gpu, "gpu_");
  c.io_size = p.get_bytes("io_size", "1 MiB", "bytes per I/O", "assumption: a typical large RDMA transfer");
  const std::string buffers = p.get_text("buffers", "1 MB,4 MB,16 MB,64 MB,256 MB", "comma-separated GPU buffer sizes",
                                         "assumption: a range of model-shard buffers");
  std::stringstream ss(buffers);
  for (std::string item; std::getline(ss, item, ',');) {
    Bytes b;
    if (const ParseResult r = parse_bytes(item, b); !r.ok) p.fail("buffers", r.error);
    if (!b.is_positive()) p.fail("buffers", "must be positive");
    c.buffers.push_back(b);
  }
  return c;
}

CrossoverStudy::Result CrossoverStudy::run(const Config& c, const StudyEnv&) {
  Result res;
  res.config = c;
  for (const Bytes b : c.buffers) res.rows.push_back({b, c.gpu.reg_time(b), crossover_io(c.host, c.gpu, b, c.io_size)});
  return res;
}

Json CrossoverStudy::Result::to_json() const {
  Json rows = Json::array();
  for (const Row& r : this->rows)
    rows.push_back({{"buffer", to_string(r.buffer)}, {"gpu_registration_us", r.gpu_registration.us()},
                    {"crossover_io", r.crossover_io}});
  const Bytes io = config.io_size;
  return {{"io_size", to_string(io)}, {"host_registration_per_io_us", config.host.reg_time(io).us()}, {"buffers", rows}};
}

std::string CrossoverStudy::Result::to_text() const {
  const Bytes io = config.io_size;
  std::string text = fmt::format("host registration per {} I/O: {:.1f} us\n", to_string(io), config.host.reg_time(io).us());
  for (const Row& r : rows)
    text += fmt::format("GPU buffer {:>10}: registered once in {:9.1f} us; persistent GPU ahead from I/O {}\n",
                        to_string(r.buffer), r.gpu_registration.us(), r.crossover_io);
  return text;
}

IOWALL_REGISTER_STUDY(CrossoverStudy, "rdma_crossover", "I/O from which persistent GPU registration beats per-I/O host");

MttStudy::Config MttStudy::read_config(const Params& p) {
  Config c;
  c.cache = TranslationCacheConfig::read(p);
  MttWorkload& w = c.workload;
  w.workers = p.get_int("workers", 64, 1, i64{1} << 20, "workers, one registered buffer each",
                        "assumption: a data-parallel job's loaders on one HCA");
  w.buffer = p.get_bytes("buffer", "1 MiB", "each worker's buffer, read whole by each I/O", "assumption");
  const MemoryKind kind = read_memory(p, c.memory, "host (4 KiB pages) or gpu (64 KiB pages)");
  w.page_size = RegistrationCost::read(Params(Json::object(), {"", ""}), kind).page_size;
  c.order = p.get_choice("order", "cyclic", {"cyclic", "random"}, "each worker in turn, or workers drawn at random",
                         "assumption: a collective step, or independent data loaders");
  w.random_order = c.order == "random";
  w.rounds = p.get_int("rounds", 16, 2, i64{1} << 20, "rounds of one I/O per worker (the first warms the cache)",
                       "assumption");
  return c;
}

MttStudy::Result MttStudy::run(const Config& c, const StudyEnv& env) {
  Result res;
  res.config = c;
  res.config.workload.seed = env.seed;
  res.r = simulate_mtt(c.cache, res.config.workload);
  return res;
}

Json MttStudy::Result::to_json() const {
  const MttWorkload& w = config.workload;
  return {{"memory", config.memory}, {"workers", w.workers}, {"order", config.order}, {"buffer", to_string(w.buffer)},
          {"page_size", to_string(w.page_size)}, {"cache_lines", config.cache.entries},
          {"lines_per_io", r.lines_per_io}, {"live_lines", r.live_lines}, {"hit_rate", r.hit_rate},
          {"misses_per_round", r.misses_per_round}, {"overhead_per_round_us", r.overhead_per_round.us()}};
}

std::string MttStudy::Result::to_text() const {
  const MttWorkload& w = config.workload;
  const i64 pages = ceil_div(w.buffer, w.page_size);
  return fmt::format(
      "{} workers x {} {} buffer ({} pages): {} translation lines per I/O, {} live vs {} cached\n"
      "hit rate {:.1f}%, {:.0f} misses per round, {:.1f} us of translation reads per round\n",
      w.workers, to_string(w.buffer), config.memory, pages, r.lines_per_io, r.live_lines, config.cache.entries,
      100 * r.hit_rate, r.misses_per_round, r.overhead_per_round.us());
}

IOWALL_REGISTER_STUDY(MttStudy, "rdma_mtt", "HCA translation-cache hit rate with many live buffers");

}  // namespace iowall::rdma
