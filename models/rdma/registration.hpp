// RDMA memory registration (ibv_reg_mr): pinning pages and writing their translations
// costs T = T_fixed + pages x T_page, with 4 KiB host pages or 64 KiB GPU pages.
// Registering per I/O pays that before every transfer; a persistent registration pays
// it once per buffer. Seed 001's Registration Efficiency Ratio R = T_transfer /
// (T_reg + T_transfer) is computed from these costs, not assumed.
#pragma once
#include <string>

#include "sim/core/params.hpp"
#include "sim/core/units.hpp"

namespace iowall::rdma {

enum class MemoryKind { host, gpu };
MemoryKind memory_kind_from_name(const std::string& name);  // "host" or "gpu"; throws std::invalid_argument
const char* memory_kind_name(MemoryKind k);

struct RegistrationCost {
  Time fixed;           // system call, region setup, MPT entry
  Time per_page;        // pin one page and write its translation
  Bytes page_size;      // translation granularity
  Time dereg_per_page;  // unpin one page on ibv_dereg_mr
  Bytes capacity;       // memory of this kind that can be pinned at all

  // Reads the parameters (with defaults and sources for `kind`) from `p`, each key
  // after `prefix` (a study that compares host and GPU memory reads "host_fixed", ...).
  static RegistrationCost read(const Params& p, MemoryKind kind, const std::string& prefix = "");

  i64 pages(Bytes buffer) const { return ceil_div(buffer, page_size); }
  Time reg_time(Bytes buffer) const { return fixed + per_page * pages(buffer); }
  Time dereg_time(Bytes buffer) const { return dereg_per_page * pages(buffer); }
};

// N transfers of `io_size` over one link, from a buffer of `buffer` bytes.
struct RegistrationRun {
  Bytes buffer, io_size;
  Bandwidth link;
  i64 ios = 1;
  bool per_io = true;  // register and deregister around every I/O, else once for the buffer
};

struct RegistrationResult {
  i64 pages_per_registration = 0;
  Time t_reg;        // one registration (of the I/O buffer per I/O, or of the whole buffer)
  Time t_dereg;      // one deregistration
  Time t_transfer;   // one I/O at line rate
  Time total;        // all I/Os, registration serialized with the transfers
  double efficiency = 0;  // seed 001's R over the run: transfer time / (registration + transfer)
  double effective_Gbps = 0;
};

// Throws InputError (pointer `--size`) when the buffer exceeds the memory capacity.
RegistrationResult simulate_registration(const RegistrationCost& cost, const RegistrationRun& run);

// The first I/O count at which persistent GPU registration of `buffer` has taken no
// longer in total than registering host memory per I/O of `io_size`: the registration
// times alone decide, since both move the same bytes over the same link.
i64 crossover_io(const RegistrationCost& host, const RegistrationCost& gpu, Bytes buffer, Bytes io_size);

}  // namespace iowall::rdma
