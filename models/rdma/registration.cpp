#include "models/rdma/registration.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace iowall::rdma {

MemoryKind memory_kind_from_name(const std::string& name) {
  if (name == "host") return MemoryKind::host;
  if (name == "gpu") return MemoryKind::gpu;
  throw std::invalid_argument(fmt::format("\"{}\" is not a memory kind (expected host or gpu)", name));
}

const char* memory_kind_name(MemoryKind k) { return k == MemoryKind::host ? "host" : "gpu"; }

RegistrationCost RegistrationCost::read(const Params& p, MemoryKind kind, const std::string& prefix) {
  RegistrationCost c;
  auto key = [&prefix](const char* name) { return prefix + name; };
  if (kind == MemoryKind::host) {
    c.fixed = p.get_time(key("fixed"), "10 us", "fixed cost of one registration (system call, region and MPT setup)",
                         "seed 001: 5-10 us; upper end, as in its R = 0.23 example");
    c.per_page = p.get_time(key("per_page"), "390 ns", "pin one page and write its MTT entry",
                            "Mooncake PR #855: 500 GB registered in 49.2 s, about 0.39 us per 4 KiB page");
    c.page_size = p.get_bytes(key("page_size"), "4 KiB", "host page size (translation granularity)", "x86-64 base page");
    c.dereg_per_page = p.get_time(key("dereg_per_page"), "95 ns", "unpin one page on deregistration",
                                  "Mooncake PR #855: 500 GB deregistered in 11.8 s");
    c.capacity = p.get_bytes(key("capacity"), "2 TiB", "host memory that can be pinned", "DGX H100: 2 TB system memory");
  } else {
    c.fixed = p.get_time(key("fixed"), "50 us", "fixed cost: system call plus the GPU page-table walk",
                         "seed 001: T_fixed + T_GPU_PTE_walk, 20-50 us; upper end");
    c.per_page = p.get_time(key("per_page"), "390 ns",
                            "pin one GPU page and write its MTT entry (no published GPU figure: the host "
                            "per-entry cost, as seed 001's 16x-fewer-pages argument assumes)",
                            "Mooncake PR #855 host figure, applied per 64 KiB GPU page");
    c.page_size = p.get_bytes(key("page_size"), "64 KiB", "GPU page size exposed to peer devices",
                              "NVIDIA GPUDirect RDMA docs (nvidia_p2p_get_pages 64 KiB pages); seed 001");
    c.dereg_per_page = p.get_time(key("dereg_per_page"), "95 ns", "unpin one page on deregistration",
                                  "Mooncake PR #855 host figure, applied per GPU page");
    c.capacity = p.get_bytes(key("capacity"), "80 GB", "GPU memory that can be registered", "H100 SXM: 80 GB HBM3");
  }
  if (!c.page_size.is_positive()) p.fail(key("page_size"), "the page size must be positive");
  if (!c.capacity.is_positive()) p.fail(key("capacity"), "the memory capacity must be positive");
  return c;
}

RegistrationResult simulate_registration(const RegistrationCost& cost, const RegistrationRun& run) {
  if (!run.buffer.is_positive() || !run.io_size.is_positive() || run.ios <= 0 || !run.link.is_positive())
    throw InputError("", "", "buffer, I/O size, I/O count and link rate must be positive");
  if (run.buffer > cost.capacity)
    throw InputError("", "--size",
                     fmt::format("cannot register {}: only {} of this memory exists", to_string(run.buffer),
                                 to_string(cost.capacity)));
  if (run.io_size > run.buffer)
    throw InputError("", "--io-size", "the I/O size is larger than the buffer it is read into");
  RegistrationResult r;
  const Bytes registered = run.per_io ? run.io_size : run.buffer;
  r.pages_per_registration = cost.pages(registered);
  r.t_reg = cost.reg_time(registered);
  r.t_dereg = cost.dereg_time(registered);
  r.t_transfer = transfer_time(run.io_size, run.link);
  const Time transfers = r.t_transfer * run.ios;
  const Time regs = run.per_io ? r.t_reg * run.ios : r.t_reg;
  const Time deregs = run.per_io ? r.t_dereg * run.ios : r.t_dereg;
  r.total = regs + transfers + deregs;
  // Seed 001 defines R with registration only; deregistration is reported in `total`.
  r.efficiency = ratio(transfers, regs + transfers);
  r.effective_Gbps = gbit_per_s(run.io_size * run.ios, r.total);  // total > 0: transfers take time
  return r;
}

i64 crossover_io(const RegistrationCost& host, const RegistrationCost& gpu, Bytes buffer, Bytes io_size) {
  // GPU persistent: reg(buffer) + n*T; host per I/O: n*(reg(io) + T). Equal transfers cancel.
  return std::max<i64>(1, ceil_div(gpu.reg_time(buffer), host.reg_time(io_size)));
}

}  // namespace iowall::rdma
