#include "models/storage/stripe_layout.hpp"

#include <algorithm>

namespace iowall::storage {

void split_io(const StripeLayout& layout, i64 file, Bytes file_offset, Bytes size, Bytes max_rpc,
              std::vector<StripePiece>& out) {
  out.clear();
  const i64 unit = layout.stripe_size.n;
  i64 at = file_offset.n;
  const i64 end = file_offset.n + size.n;
  while (at < end) {
    const i64 stripe = at / unit, within = at % unit;
    const i64 n = std::min({end - at, unit - within, max_rpc.n});
    out.push_back({layout.ost_of(file, stripe % layout.stripe_count),
                   Bytes(stripe / layout.stripe_count * unit + within), Bytes(n)});
    at += n;
  }
}

}  // namespace iowall::storage
