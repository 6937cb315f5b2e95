// How an NVMe drive's controller serves a read command once it is fetched: a named
// child component of `nvme_ssd` ("read_service": "overlapped" | "serial" | "batched"),
// one small implementation each, chosen by name and registered by a macro next to its
// class (models/ssd/read_services.cpp). A service decides when the controller is busy
// with a read and when the read's media access (or data delivery) starts; the drive
// does the rest (media, internal data path, DMA, completion). Each service is listed by
// `iowall models` in the "read_service" domain with the drive parameters it uses, and
// has a closed form of its throughput (its ceiling), which `iowall calibrate` fits.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/registry.hpp"
#include "sim/core/units.hpp"

namespace iowall {

class NvmeSsd;
class Server;
class SimContext;

// The figures of a read service's closed form, in SI units: the drive's max_iops,
// read_bandwidth, read_latency and mdts, and the host's CPU time per I/O (outside the
// drive). What `iowall calibrate` fits.
struct ReadCeilingInputs {
  double max_iops = 0;         // commands per second
  double bandwidth_Bps = 0;    // bytes per second through the internal read path
  double latency_s = 0;        // lumped read latency, seconds
  double mdts_bytes = 131072;  // the largest command: a read of `size` is ceil(size / mdts) commands
  double cpu_s = 0;            // host CPU seconds per I/O
  // Seconds a byte adds where its data lands in memory a virtual disk's host must fetch
  // first (virtio_blk copy_cache: the point's cold share / cold_copy_bandwidth); 0: none.
  double cold_s_per_byte = 0;
  // Seconds a byte takes through the read path: the bandwidth's share and the cold one.
  double byte_s() const { return 1.0 / bandwidth_Bps + cold_s_per_byte; }
};
// A virtual disk's copy cache (virtio_blk copy_cache): the share of a read's bytes landing in
// memory the host's cache does not hold, for an issuer cycling through `footprint` bytes
// (0: fresh memory) with `cache` bytes kept: none up to the cache, all from twice it, linear
// between.
inline double cold_copy_share(double footprint, double cache) {
  if (!(footprint > 0)) return 1.0;
  const double over = footprint / cache - 1.0;
  return over < 0 ? 0.0 : over > 1 ? 1.0 : over;
}

// A service's closed form (mean value): the throughput, bytes per second, of
// `concurrency` reads of `size` bytes kept in flight.
using ReadCeiling = double (*)(const ReadCeilingInputs& d, double size, int concurrency);
struct ReadCeilingForm {
  ReadCeiling ceiling;
  const char* formula;  // the same in words, with the drive parameters' names
};

// The services' names: what "read_service" takes (and what `iowall calibrate` writes).
namespace read_services {
inline constexpr char overlapped[] = "overlapped";
inline constexpr char serial[] = "serial";
inline constexpr char batched[] = "batched";
}  // namespace read_services

// Each implementation also has, as static members, its closed-form ceiling and its
// formula in words:
//   static double ceiling(const ReadCeilingInputs&, double size, int concurrency);
//   static constexpr char kFormula[] = "throughput = ...";
class ReadService {
public:
  explicit ReadService(NvmeSsd& drive) : drive_(drive) {}
  virtual ~ReadService() = default;
  // Read command `cmd` has been fetched from its submission queue: serve it.
  virtual void serve(std::uint32_t cmd) = 0;

protected:
  // The drive's steps a service composes (NvmeSsd befriends this class only).
  Server& controller() const;
  Time processing() const;                  // one command's processing, 1 / max_iops
  Time transfer(std::uint32_t cmd) const;   // its data over the internal path, bytes / read_bandwidth
  int queue_of(std::uint32_t cmd) const;    // its submission queue (arbitration class)
  void read_media(std::uint32_t cmd, Time from) const;  // media access from `from`, then delivery
  void deliver(std::uint32_t cmd) const;    // the data to its destination, then its completion
  void complete_no_earlier(std::uint32_t cmd, Time t) const;  // hold its completion until `t`
  Time wake_latency() const;                // lumped read latency (a draw of the drive's RNG)
  SimContext& ctx() const;
  Time now() const;

  NvmeSsd& drive_;
};

using ReadServiceFactory = std::function<std::unique_ptr<ReadService>(NvmeSsd&)>;

// The registered services' names, sorted; and one built by name (nullptr if unknown).
std::vector<std::string> read_service_names();
std::unique_ptr<ReadService> make_read_service(const std::string& name, NvmeSsd& drive);
// The closed form of the service `name` (std::logic_error if no service has that name).
const ReadCeilingForm& read_ceiling(const std::string& name);

namespace detail {
// `uses`: the drive parameters the service reads, each with its role in the service.
struct ReadServiceRegistrar {
  ReadServiceRegistrar(const char* name, const char* description, const char* header, ReadServiceFactory f,
                       ReadCeilingForm ceiling, std::vector<std::pair<std::string, std::string>> uses);
};
}  // namespace detail

// Registers a ReadService subclass constructed from (NvmeSsd&) under NAME.
#define IOWALL_REGISTER_READ_SERVICE(Class, NAME, DESCRIPTION, ...)                             \
  static const ::iowall::detail::ReadServiceRegistrar IOWALL_CONCAT(iowall_reg_, __COUNTER__){     \
      NAME, DESCRIPTION, __FILE__,                                                               \
      [](::iowall::NvmeSsd& d) -> std::unique_ptr<::iowall::ReadService> { return std::make_unique<Class>(d); }, \
      ::iowall::ReadCeilingForm{&Class::ceiling, Class::kFormula}, __VA_ARGS__}

}  // namespace iowall
