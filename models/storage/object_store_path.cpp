// object_store: an S3-like object store. The workload's I/O is one GET (or PUT) of an
// object of io_size bytes; the client splits it into part_size ranges (multipart /
// ranged GETs), all in flight at once. Each request:
//   1. costs request_cpu on the client (HTTP request, signing, SDK);
//   2. waits first_byte_latency (HTTP parsing, authentication, metadata lookup at the
//      storage node: a wait here, not CPU) and server_request_cpu on the node's CPU;
//   3. has its range read from a drive of a storage node and carried like an NVMe-oF
//      read: over TCP (CPU per byte on both ends, a copy, then cudaMemcpy into a GPU),
//      or, as cuObject does, by RDMA straight into GPU memory (the S3 request stays on
//      the control path, the payload moves by RDMA WRITE).
// Parts go to the drives round-robin by object and part, a stand-in for the store's
// hash placement.
#include <fmt/format.h>

#include "models/storage/split_io_path.hpp"
#include "sim/config/registry.hpp"

namespace iowall::storage {

class ObjectStorePath final : public SplitIoPath {
public:
  struct Config : ParamSet {
    using ParamSet::ParamSet;
    IOWALL_PARAM(std::string, drives, "all", kDrivesDescription, kDrivesSource);
    IOWALL_PARAM(Bytes, part_size, "8 MiB",
                 "range of one request: objects larger than this are fetched as parallel ranged GETs (multipart), "
                 "a multiple of 4 KiB",
                 "AWS CLI / s3transfer default multipart_chunksize 8 MiB");
    IOWALL_PARAM(Time, first_byte_latency, "2 ms",
                 "per request, before the first byte leaves the storage node: HTTP, authentication, metadata "
                 "lookup (a wait, not CPU)",
                 "assumption for an on-premises store on NVMe; AWS documents 100-200 ms for S3 Standard, "
                 "seed 003 says 100 ms");
    IOWALL_PARAM(Time, request_cpu, "20 us", "client CPU per request: HTTP request, signing, SDK bookkeeping",
                 "assumption");
    IOWALL_PARAM(Time, server_request_cpu, "50 us",
                 "storage node CPU per request: HTTP parsing, signature check, metadata", "assumption");
  };
  static void describe(const Params& p) {
    (void)Config(p);
    nvmeof::describe_transport(p, "tcp");
  }

  ObjectStorePath(const Params& p, PathEnv& env) : ObjectStorePath(p, env, Config(p)) {}

  void submit(const IoRequest& r, Done done) override {
    const std::uint32_t id = begin({r, done, &cpu_near(*r.target), nullptr, nullptr});
    const i64 parts = ceil_div(r.size, config_.part_size);
    expect(id, static_cast<int>(parts));
    for (i64 j = 0; j < parts; ++j)
      io(id).cpu->spend(config_.request_cpu, [this, id, j] {
        env_.mover.call_at(env_.ctx.now() + config_.first_byte_latency, [this, id, j] {
          cpu_near(drives_[drive(id, j)]->device()).spend(config_.server_request_cpu, [this, id, j] { fetch(id, j); });
        });
      });
  }

private:
  ObjectStorePath(const Params& p, PathEnv& env, const Config& c)
      : SplitIoPath(p, env, c.drives, "drives", "tcp"), config_(c) {
    if (!c.part_size.is_positive() || !c.part_size.is_multiple_of(Bytes(4096)))
      p.fail("part_size", fmt::format("{} is not a positive multiple of 4 KiB", to_string(c.part_size)));
    if (c.first_byte_latency.is_negative()) p.fail("first_byte_latency", "the first-byte latency cannot be negative");
  }

  std::size_t drive(std::uint32_t id, i64 part) {
    const IoRequest& r = io(id).io;
    return static_cast<std::size_t>((r.offset / r.size + part) % static_cast<i64>(drives_.size()));
  }

  void fetch(std::uint32_t id, i64 part) {
    const IoRequest& r = io(id).io;
    const Bytes from = config_.part_size * part;
    const Bytes size = std::min(config_.part_size, r.size - from);
    const std::size_t d = drive(id, part);
    start_piece(id, d, on_drive(d, r.offset + from, Bytes(4096)), size, [this, id] { piece_done(id); });
  }

  Config config_;
};

namespace {
const detail::PathRegistrar object_store_path_registrar{
    "object_store",
    "S3-like object store: per-request first-byte latency, objects as parallel ranged GETs over storage nodes, "
    "TCP (CPU per byte) or RDMA into GPU memory (cuObject)",
    __FILE__,
    [](const Params& p, PathEnv& env) -> std::unique_ptr<DataPath> { return std::make_unique<ObjectStorePath>(p, env); },
    [](const Params& p) { ObjectStorePath::describe(p); }};
}  // namespace

}  // namespace iowall::storage
