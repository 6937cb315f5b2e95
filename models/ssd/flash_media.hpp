// NAND (or 3D XPoint) media behind an SSD controller: channels of dies, each die with
// planes that read or program a page in parallel. A read occupies a die for its page
// read time (tR), then the die's channel for the page's transfer; a program occupies
// the channel, then the die for tPROG. Logical pages are striped over dies the way an
// FTL spreads them, so random offsets collide on dies as they do in a drive, and queueing
// behind a busy die is what makes p99 and p99.99 grow with load. Dies and channels are
// booked (Timeline) when a command starts: every page is timed then, and the command
// costs one event however many pages it spans.
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include "sim/core/component.hpp"
#include "sim/core/inline_function.hpp"
#include "sim/core/timeline.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall {

struct FlashGeometry {
  int channels = 8;
  int dies_per_channel = 8;
  int planes = 4;
  Bytes page{16384};
  Time read_time, program_time;
  Bandwidth channel_bandwidth;
  double read_sigma = 0.1;              // lognormal spread of tR
  double read_retry_probability = 0.0;  // a page read that needs another sensing pass
};

class FlashMedia {
public:
  using Done = InlineFunction<void()>;
  FlashMedia(Component& owner, const FlashGeometry& g);

  // Reads [offset, offset + bytes), starting at `from` (not before now; the controller
  // books the media when it takes the command on); `done` once every page has crossed
  // its channel.
  void read(Bytes offset, Bytes bytes, Done done, Time from);
  // Programs [offset, offset + bytes); `done` once every page is on the media.
  void program(Bytes offset, Bytes bytes, Done done);
  int dies() const { return static_cast<int>(dies_.size()); }
  std::size_t in_flight() const { return ops_.live(); }

private:
  // Calls `page_fn(die, page_bytes)` for each page of the range.
  template <typename F>
  void for_each_page(Bytes offset, Bytes bytes, F&& page_fn);
  void finish_at(Time end, Done done);
  Time channel_time(Bytes page_bytes) const;  // a page's transfer over its channel
  Timeline& channel_of(int die);              // the channel a die sits on
  Time sensing_time();

  Component& owner_;
  FlashGeometry g_;
  Time full_page_transfer_;
  // In place, not behind pointers: a random read lands on any die, and each pointer
  // followed would be one more cache miss per page.
  std::deque<Timeline> dies_, channels_;
  SlotPool<Done> ops_;
};

}  // namespace iowall
