// What the parallel-file-system and object-store paths share: a client I/O becomes
// pieces, each a read (or write) of one drive on a storage server carried by an NVMe-oF
// transport (RDMA, optionally into GPU memory, or TCP with CPU per byte), and it
// completes when its last piece does. The drives are the path's own (its layout
// decides which one holds which bytes); the workload's choice of drive is not used.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/nvmeof/nvmeof_path.hpp"
#include "sim/core/block_storage.hpp"
#include "models/paths/path_base.hpp"

namespace iowall::storage {

// What a storage server does with one piece (IoRequest's cached, server_local,
// shares_thread and server_syncs).
struct ServerSide {
  bool cached = false;         // served from (a read) or kept in (a write) its memory
  bool server_local = false;   // a write of bytes already in its memory
  bool shares_thread = false;  // another piece of the command holds its service thread
  bool syncs = false;          // a write the server makes durable (fsync) before replying
  int connection = 0;          // which of the client's connections carries it (IoRequest::connection)
};

class SplitIoPath : public PathBase {
public:
  // The transport's remark (the per-packet network's totals, which it publishes then).
  std::string note() const override { return transport_->note(); }

protected:
  // `drives`: the value of the path's parameter listing its drives (`drives_key`, declared
  // with kDrivesDescription); `default_transport`: rdma or tcp.
  SplitIoPath(const Params& p, PathEnv& env, const std::string& drives, const char* drives_key,
              const char* default_transport);
  // The description and source of the drive list parameter ("drives" or "osts").
  static constexpr char kDrivesDescription[] =
      "the storage servers' drives this path spreads data over, in order: comma-separated nvme_ssd ids, or all "
      "(every nvme_ssd of the topology, in declaration order)";
  static constexpr char kDrivesSource[] = "scenario choice: the servers' drives of the topology";

  // I/O `id` will finish after `pieces` pieces.
  void expect(std::uint32_t id, int pieces);
  // `size` bytes at `offset` of drive `drive` for I/O `id`; `then` after the piece is in
  // place, before the I/O counts it. `how`: what the server does with it.
  void start_piece(std::uint32_t id, std::size_t drive, Bytes offset, Bytes size, Done then, ServerSide how = {});
  // Called by `then`: when it was the I/O's last piece, the I/O finishes.
  void piece_done(std::uint32_t id);
  // Counts one piece of I/O `id` in without finishing it: true when it was the last (the
  // caller then goes on, e.g. to a second round of pieces after a new expect).
  bool last_piece_in(std::uint32_t id) { return --pieces_left_[id] == 0; }
  // An offset on `drive` for `offset` within a data set larger than one drive.
  Bytes on_drive(std::size_t drive, Bytes offset, Bytes align) const;

  std::vector<BlockStorage*> drives_;

private:
  std::unique_ptr<DataPath> transport_;
  bool tcp_ = false;              // TCP carries reads only
  std::vector<int> pieces_left_;  // by I/O
};

}  // namespace iowall::storage
