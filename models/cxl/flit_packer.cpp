#include "models/cxl/flit_packer.hpp"

namespace iowall::cxl {

void FlitPacker::push(const Message& m, std::uint32_t tag) { queue_.push_back({m, tag, m.data_slots, false}); }

void FlitPacker::finish(Entry& e, std::vector<std::uint32_t>& completed) {
  e.done = true;
  completed.push_back(e.tag);
}

bool FlitPacker::pack_headers(i64 bits, std::vector<std::uint32_t>& completed) {
  bool any = false;
  while (headers_waiting() && at(next_header_).m.header_bits <= bits) {
    Entry& e = at(next_header_++);
    bits -= e.m.header_bits;
    announced_ += e.data_left;
    if (e.data_left == 0) finish(e, completed);
    any = true;
  }
  return any;
}

bool FlitPacker::send_data_slot(std::vector<std::uint32_t>& completed) {
  if (announced_ == 0) return false;
  while (at(next_data_).data_left == 0) ++next_data_;  // announced data lies at or after it
  Entry& e = at(next_data_);
  --announced_;
  if (--e.data_left == 0) finish(e, completed);
  return true;
}

i64 FlitPacker::next_flit(std::vector<std::uint32_t>& completed) {
  i64 filled = 0;
  const bool all_data = layout_.all_data_flit && (!headers_waiting() || announced_ >= layout_.slots);
  if (all_data) {
    for (i64 s = 0; s < layout_.slots && send_data_slot(completed); ++s) ++filled;
  } else {
    if (pack_headers(layout_.hslot_bits, completed)) ++filled;
    for (i64 s = 1; s < layout_.slots; ++s) {
      // Announced data first: a header slot now would only delay data already promised.
      if (send_data_slot(completed) || pack_headers(kSlotBytes * 8, completed)) ++filled;
      else break;
    }
  }
  while (!queue_.empty() && queue_.front().done) {
    queue_.pop_front();
    ++base_;
  }
  if (next_data_ < base_) next_data_ = base_;
  return filled;
}

}  // namespace iowall::cxl
