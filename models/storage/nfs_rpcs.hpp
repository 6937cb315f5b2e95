// The arithmetic of an NFS client's data RPCs: an I/O becomes READ (WRITE) calls of at
// most rsize (wsize) bytes, cut from its start; and which READs the server's page cache
// serves, as a fixed pattern with the configured hit ratio (no random numbers, so runs
// stay byte-identical and short runs still see the ratio).
#pragma once
#include <algorithm>

#include "sim/core/units.hpp"

namespace iowall::storage {

// RPCs for an I/O of `size` with at most `max_rpc` bytes each.
inline i64 rpc_count(Bytes size, Bytes max_rpc) { return ceil_div(size, max_rpc); }

// The `k`-th RPC of an I/O at `offset`: where it starts and how much it carries.
struct RpcPiece {
  Bytes offset, size;
};
inline RpcPiece rpc_piece(Bytes offset, Bytes size, Bytes max_rpc, i64 k) {
  const Bytes from = max_rpc * k;
  return {offset + from, std::min(max_rpc, size - from)};
}

// Hits spread evenly: READ number n hits when floor((n + 1) r) > floor(n r), so any run
// of READs has the ratio r to within one.
class CacheHitPattern {
public:
  static constexpr i64 kScale = 1'000'000;
  explicit CacheHitPattern(double ratio) : per_million_(static_cast<i64>(ratio * kScale + 0.5)) {}
  bool next() {
    const bool hit = (n_ + 1) * per_million_ / kScale > n_ * per_million_ / kScale;
    ++n_;
    return hit;
  }

private:
  i64 per_million_;
  i64 n_ = 0;
};

}  // namespace iowall::storage
