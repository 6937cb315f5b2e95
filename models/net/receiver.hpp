// The receiving end of a flow: it puts packets back in order (one that arrives past a
// gap waits until the gap fills, as a spraying transport's receiver must) and logs the
// bytes delivered per 10 us bin, from which windowed rates are read.
#pragma once
#include <algorithm>
#include <map>
#include <vector>

#include "models/net/fabric_stats.hpp"

namespace iowall::net {

struct ReorderBuffer {
  i64 expected = 0;
  std::map<i64, i64> early;  // packets past a gap (seq -> bytes)
  i64 early_bytes = 0;

  void on_packet(i64 seq, i64 bytes, FlowStats& s) {
    if (seq != expected) {
      ++s.out_of_order;
      early[seq] = bytes;
      early_bytes += bytes;
      s.max_reorder = std::max(s.max_reorder, Bytes(early_bytes));
      return;
    }
    ++expected;
    for (auto it = early.begin(); it != early.end() && it->first == expected; it = early.erase(it)) {
      early_bytes -= it->second;
      ++expected;
    }
  }
};

struct DeliveryLog {
  static constexpr Time kBin = Time(10'000'000);
  std::vector<i64> bins;

  void add(Time now, i64 bytes) {
    const auto bin = static_cast<std::size_t>(now.ps / kBin.ps);
    if (bins.size() <= bin) bins.resize(bin + 1, 0);
    bins[bin] += bytes;
  }
  // Bytes delivered before `t`, to the bin.
  Bytes before(Time t) const {
    const auto n = std::min<std::size_t>(bins.size(), static_cast<std::size_t>(t.ps / kBin.ps));
    i64 sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += bins[i];
    return Bytes(sum);
  }
};

}  // namespace iowall::net
