#include "sim/plan/storage_target.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall::plan {

double StorageTarget::latency_bound_bw() const {
  if (request_latency <= 0 || io_size <= 0) return 0;
  return queue_depth * io_size / request_latency;
}
double StorageTarget::client_cap() const {
  const double l = latency_bound_bw();
  if (client_bw <= 0) return l;
  return l <= 0 ? client_bw : std::min(client_bw, l);
}

const std::vector<std::string>& storage_kinds() {
  static const std::vector<std::string> k{"local-nvme", "nvme-of", "pfs", "object"};
  return k;
}

namespace {
constexpr double GB = 1e9, TB = 1e12, MiB = 1048576.0;
// Storage NICs of a GPU node: two 400 Gb/s ports (DGX H100 carries two dual-port
// ConnectX-7 for storage and in-band management; two ports for storage is an assumption).
constexpr double kNodeStorageNic = 2 * 400e9 / 8;
}  // namespace

StorageTarget storage_preset(const std::string& kind) {
  StorageTarget t;
  t.kind = kind;
  if (kind == "local-nvme") {
    t.node_write_bw = 8 * 6.0 * GB;
    t.node_read_bw = 8 * 13.0 * GB;
    t.request_latency = 15e-6;
    t.io_size = 1 * MiB;
    t.queue_depth = 32;
    t.file_latency = 1e-3;
    t.capacity_per_node = 8 * 3.84 * TB;
    t.server_write_bw = 6.0 * GB;
    t.server_unit = "SSD per node";
    t.notes = {"node bandwidth: 8 drives x PM1743 6.0 GB/s write, 13 GB/s read (figures.md, vendor spec)",
               "no shared ceiling: each node writes its own drives; a checkpoint on a failed node is lost unless copied",
               "request latency 15 us: Micron 9550 typical write latency (figures.md)",
               "capacity 8 x 3.84 TB per node: DGX H100 internal NVMe (datasheet)",
               "file create + fsync 1 ms: assumption"};
  } else if (kind == "nvme-of") {
    t.write_bw = t.read_bw = 8 * 100 * GB;
    t.node_write_bw = t.node_read_bw = kNodeStorageNic;
    t.request_latency = 30e-6;
    t.io_size = 1 * MiB;
    t.queue_depth = 32;
    t.file_latency = 1e-3;
    t.server_write_bw = 100 * GB;
    t.server_unit = "server";
    t.notes = {"aggregate: 8 servers x 100 GB/s; a server = 2 x 400 Gb/s NICs in front of 24 Gen5 drives "
               "(24 x 6.0 GB/s > 100 GB/s): assumption",
               "per node: 2 x 400 Gb/s storage ports: assumption (DGX H100 class)",
               "request latency 30 us: 15 us drive write (figures.md) + RDMA fabric and target: assumption",
               "file create + commit 1 ms: assumption"};
  } else if (kind == "pfs") {
    t.write_bw = t.read_bw = 16 * 50 * GB;
    t.node_write_bw = t.node_read_bw = kNodeStorageNic;
    t.client_bw = 10 * GB;
    t.request_latency = 1e-3;
    t.io_size = 4 * MiB;
    t.queue_depth = 8;
    t.file_latency = 5e-3;
    t.server_write_bw = 50 * GB;
    t.server_unit = "server";
    t.notes = {"aggregate: 16 object-storage servers x 50 GB/s: assumption",
               "per node: 2 x 400 Gb/s storage ports: assumption",
               "one process's client at most 10 GB/s (single-stream client software): assumption",
               "4 MiB RPCs, 8 in flight (Lustre defaults max_pages_per_rpc, max_rpcs_in_flight), 1 ms each: assumption",
               "file create on the metadata server 5 ms: assumption"};
  } else if (kind == "object") {
    t.write_bw = t.read_bw = 200 * GB;
    t.node_write_bw = t.node_read_bw = kNodeStorageNic;
    t.client_bw = 16 * 0.09 * GB;
    t.request_latency = 50e-3;
    t.io_size = 64 * MiB;
    t.queue_depth = 16;
    t.file_latency = 100e-3;
    t.server_write_bw = 25 * GB;
    t.server_unit = "server";
    t.notes = {"aggregate 200 GB/s: assumption (the figure seed 003 asks for)",
               "per rank 16 connections x ~90 MB/s per HTTP connection: assumption",
               "64 MiB multipart parts, 16 in flight, 50 ms service each: assumption",
               "multipart create + complete 100 ms: assumption"};
  } else {
    throw InputError("", "--target",
                     fmt::format("\"{}\" is not a storage target (expected local-nvme, nvme-of, pfs or object)", kind));
  }
  return t;
}

}  // namespace iowall::plan
