// How a polling host finds its own command's completion among the CQ entries (CqLookup,
// sim/core/block_storage.hpp), one small strategy per mode, each holding one queue's
// state; NvmeQueues picks the queue's mode where it matters (fetch, completion, posting):
//   reap_all: one poller consumes every new entry from the head (NvmeQueues::reap): no
//             state of its own, O(1) per entry.
//   scan (CqScan): each waiting GPU thread reads entries from the CQ head up to its own
//             command id; the head moves only past a prefix of found entries, so one slow
//             lookup keeps every entry behind it in the window later lookups read through.
//   in_order (InOrderCq): the controller posts entries in submission order, so a thread
//             knows its slot (O(1)); a command that finished early waits for the ones
//             before it.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/core/units.hpp"

namespace iowall {

class CqScan {
public:
  // An entry is posted at `now`: when its thread has read its way to it (a poll delay,
  // then one entry read per entry in the window, its own included), and through how many
  // entries it read (`read`).
  Time find(Time now, Time poll_delay, Time check_cost, std::size_t& read) {
    while (!window_.empty() && window_.front() <= now) window_.pop_front();
    const Time found = now + poll_delay + check_cost * static_cast<i64>(window_.size() + 1);
    window_.push_back(found);
    read = window_.size();
    return found;
  }

private:
  std::deque<Time> window_;  // posted entries from the CQ head on: when each is found
};

class InOrderCq {
public:
  // Command `cmd` was fetched: it takes the next slot of the CQ.
  void fetched(std::uint32_t cmd) { order_.push_back(cmd); }
  // Command `cmd` finished (`finished`: a flag by command index, shared by the queues):
  // `post` runs for it and every finished command behind it, once all before are out.
  template <typename Post>
  void finish(std::uint32_t cmd, std::vector<bool>& finished, Post&& post) {
    if (finished.size() <= cmd) finished.resize(cmd + 1, false);
    finished[cmd] = true;
    while (!order_.empty() && finished[order_.front()]) {
      const std::uint32_t next = order_.front();
      order_.pop_front();
      finished[next] = false;
      post(next);
    }
  }

private:
  std::deque<std::uint32_t> order_;  // fetched, in submission order
};

}  // namespace iowall
