// Packs CXL messages into flits, one flit at a time, by the slot rules of the spec:
// headers go into the header slot (and into generic slots when no announced data is
// waiting); data follows its header in 16 B generic slots, in order. With 68 B flits
// a flit may carry only data (an all-data flit); the packer sends one whenever at
// least a flit's worth of announced data waits, so headers do not crowd data out.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "models/cxl/cxl_flit.hpp"

namespace iowall::cxl {

class FlitPacker {
public:
  explicit FlitPacker(FlitLayout layout) : layout_(layout) {}
  void push(const Message& m, std::uint32_t tag);
  bool empty() const { return queue_.empty(); }
  std::size_t queued() const { return queue_.size(); }
  // Fills one flit from the queue; appends the tags of messages whose last part it
  // carries. Returns the slots it filled (a flit leaves even if partly empty).
  i64 next_flit(std::vector<std::uint32_t>& completed);
  const FlitLayout& layout() const { return layout_; }

private:
  struct Entry {
    Message m;
    std::uint32_t tag;
    i64 data_left;
    bool done;
  };
  Entry& at(std::uint64_t seq) { return queue_[seq - base_]; }
  std::uint64_t end() const { return base_ + queue_.size(); }
  bool headers_waiting() const { return next_header_ < end(); }
  // Packs waiting headers into `bits`; returns whether any went.
  bool pack_headers(i64 bits, std::vector<std::uint32_t>& completed);
  bool send_data_slot(std::vector<std::uint32_t>& completed);
  void finish(Entry& e, std::vector<std::uint32_t>& completed);

  FlitLayout layout_;
  std::deque<Entry> queue_;
  std::uint64_t base_ = 0;         // sequence number of queue_.front()
  std::uint64_t next_header_ = 0;  // first message whose header has not left
  std::uint64_t next_data_ = 0;    // first message that may still have data to send
  i64 announced_ = 0;              // data slots of messages whose header left
};

}  // namespace iowall::cxl
