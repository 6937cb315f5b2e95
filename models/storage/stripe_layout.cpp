#include "models/storage/stripe_layout.hpp"

#include <algorithm>

namespace iowall::storage {

void split_io(const StripeLayout& layout, i64 file, Bytes file_offset, Bytes size, Bytes max_rpc,
              std::vector<StripePiece>& out) {
  out.clear();
  const Bytes unit = layout.stripe_size;
  Bytes at = file_offset;
  const Bytes end = file_offset + size;
  while (at < end) {
    const i64 stripe = at / unit;
    const Bytes within = at % unit;
    const Bytes n = std::min({end - at, unit - within, max_rpc});
    out.push_back({layout.ost_of(file, stripe % layout.stripe_count), unit * (stripe / layout.stripe_count) + within, n});
    at += n;
  }
}

}  // namespace iowall::storage
