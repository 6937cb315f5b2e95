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
  std::map<i64, Bytes> early;  // packets past a gap (seq -> bytes)
  Bytes early_bytes;

  void on_packet(i64 seq, Bytes bytes, FlowStats& s) {
    if (seq != expected) {
      ++s.out_of_order;
      early[seq] = bytes;
      early_bytes += bytes;
      s.max_reorder = std::max(s.max_reorder, early_bytes);
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
  std::vector<Bytes> bins;

  void add(Time now, Bytes bytes) {
    const auto bin = static_cast<std::size_t>(now / kBin);
    if (bins.size() <= bin) bins.resize(bin + 1);
    bins[bin] += bytes;
  }
  // Bytes delivered before `t`, to the bin.
  Bytes before(Time t) const {
    const auto n = std::min<std::size_t>(bins.size(), static_cast<std::size_t>(t / kBin));
    Bytes sum;
    for (std::size_t i = 0; i < n; ++i) sum += bins[i];
    return sum;
  }
};

}  // namespace iowall::net
