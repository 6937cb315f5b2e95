// Lustre-style file striping. A file is `stripe_count` objects on consecutive OSTs
// (starting at file mod OST count: a round-robin allocator); its bytes go to the
// objects in turn, `stripe_size` at a time. A client I/O is cut at stripe boundaries
// and at the largest RPC into pieces, each one RPC to one OST.
#pragma once
#include <vector>

#include "sim/core/units.hpp"

namespace iowall::storage {

struct StripeLayout {
  Bytes stripe_size{1 << 20};
  i64 stripe_count = 1;
  i64 ost_count = 1;
  Bytes file_size{i64{1} << 30};

  // The OST holding object `k` (0 <= k < stripe_count) of file `file`.
  i64 ost_of(i64 file, i64 k) const { return (file + k) % ost_count; }
  // Bytes of one file each of its objects holds at most (whole stripes).
  Bytes object_size() const {
    const i64 stripes = ceil_div(file_size, stripe_size);
    return stripe_size * ((stripes + stripe_count - 1) / stripe_count);
  }
};

struct StripePiece {
  i64 ost = 0;
  Bytes object_offset;  // within the file's object on that OST
  Bytes size;
};

// The pieces of `size` bytes at `file_offset` in file `file`, in file order, into `out`
// (cleared first): each within one stripe and at most `max_rpc` bytes.
void split_io(const StripeLayout& layout, i64 file, Bytes file_offset, Bytes size, Bytes max_rpc,
              std::vector<StripePiece>& out);

}  // namespace iowall::storage
