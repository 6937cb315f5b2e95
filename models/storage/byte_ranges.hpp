// A set of byte ranges [start, end), kept merged: what a file system has allocated, what a
// host holds dirty. Adding a range says how many of its bytes were new.
#pragma once
#include <algorithm>
#include <iterator>
#include <map>

#include "sim/core/units.hpp"

namespace iowall {

class ByteRanges {
public:
  // Adds [at, end): merges every range it overlaps or touches; returns the bytes of
  // [at, end) that were not in the set.
  Bytes add(i64 at, i64 end) {
    i64 covered = 0;
    auto it = ranges_.upper_bound(at);
    if (it != ranges_.begin() && std::prev(it)->second >= at) --it;
    i64 lo = at, hi = end;
    while (it != ranges_.end() && it->first <= end) {
      covered += std::max<i64>(0, std::min(end, it->second) - std::max(at, it->first));
      lo = std::min(lo, it->first);
      hi = std::max(hi, it->second);
      it = ranges_.erase(it);
    }
    ranges_[lo] = hi;
    const Bytes fresh(end - at - covered);
    total_ += fresh;
    return fresh;
  }
  // Whether [at, end) lies wholly inside one range of the set.
  bool covers(i64 at, i64 end) const {
    auto it = ranges_.upper_bound(at);
    if (it == ranges_.begin()) return false;
    --it;
    return it->first <= at && end <= it->second;
  }
  // The ranges, by start, and the bytes they hold.
  const std::map<i64, i64>& ranges() const { return ranges_; }
  Bytes total() const { return total_; }
  bool empty() const { return ranges_.empty(); }
  void clear() {
    ranges_.clear();
    total_ = Bytes(0);
  }

private:
  std::map<i64, i64> ranges_;
  Bytes total_;
};

}  // namespace iowall
