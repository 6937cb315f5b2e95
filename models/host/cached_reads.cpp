// The page cache's read side (models/host/cached_reads.hpp): readahead decisions at a
// read's next byte, windows turned into requests, and the reads waiting for them.
#include "models/host/cached_reads.hpp"

#include <algorithm>

namespace iowall {

bool CachedReads::Stream::marked(Bytes offset, Bytes end) const {
  const auto m = marks.lower_bound(offset / kPage);
  return m != marks.end() && *m < ceil_div(end, kPage);
}

CachedReads::Stream& CachedReads::stream(const BlockStorage& storage, int thread, const ReadaheadLimits& limits,
                                         Bytes file_end) {
  const auto key = std::make_pair(&storage, thread);
  auto it = streams_.find(key);
  if (it == streams_.end()) it = streams_.emplace(key, Stream{FileReadahead(limits), {}, file_end}).first;
  return it->second;
}

CachedReads::Step CachedReads::next(Id id, const BlockStorage& storage, Stream& s, Bytes cur, Bytes end,
                                    const Issue& issue) {
  const BlockStorage* store = &storage;
  const i64 page = cur / kPage, req = ceil_div(end, kPage) - page;
  if (s.marks.erase(page) > 0) {
    if (const auto w = s.ra.async(page, req, [&](i64 from, i64 max) { return next_miss(store, from, max); }))
      read_window(storage, s, *w, issue);
  }
  if (!present(store, page))
    read_window(storage, s, s.ra.sync(page, req, [&](i64 from, i64 max) { return prev_miss(store, from, max); }), issue);
  return wait_or_pass(id, store, &s.marks, cur, end);
}

CachedReads::Step CachedReads::wait_or_pass(Id id, const BlockStorage* store, const std::set<i64>* marks, Bytes cur,
                                            Bytes end) {
  if (Piece* piece = piece_at(store, cur)) {
    piece->waiters.push_back(id);
    return {true, cur};
  }
  // Cached from `cur`: to the next mark, request in flight or the read's end, or less where
  // a page on the way is not cached.
  Bytes limit = end;
  if (marks) {
    if (const auto m = marks->upper_bound(cur / kPage); m != marks->end()) limit = std::min(limit, Bytes(*m * kPage.n));
  }
  const auto next = reading_.lower_bound(PieceKey{store, cur});
  if (next != reading_.end() && next->first.storage == store) limit = std::min(limit, next->first.start);
  if (!cache_.resident(store, cur, limit - cur)) {
    Bytes p = round_down(cur, kPage) + kPage;
    while (p < limit && cache_.resident(store, p, kPage)) p += kPage;
    limit = std::min(limit, p);
  }
  return {false, limit};
}

i64 CachedReads::missing_pages(const BlockStorage& storage, Bytes offset, Bytes end) const {
  i64 n = 0;
  for (i64 p = offset / kPage, last = ceil_div(end, kPage); p < last; ++p) n += present(&storage, p) ? 0 : 1;
  return n;
}

void CachedReads::fill(const BlockStorage& storage, Bytes offset, Bytes end, i64 request_pages, const Issue& issue) {
  issue_missing(storage, offset / kPage, ceil_div(end, kPage), std::max<i64>(request_pages, 1), -1, nullptr, issue);
}

CachedReads::Step CachedReads::wait(Id id, const BlockStorage& storage, Bytes cur, Bytes end) {
  if (!present(&storage, cur / kPage)) return {false, end};  // past the store's end: nothing comes
  return wait_or_pass(id, &storage, nullptr, cur, end);
}

std::vector<CachedReads::Id> CachedReads::done(const BlockStorage* storage, Bytes offset) {
  const auto it = reading_.find(PieceKey{storage, offset});
  cache_.insert(storage, offset, it->second.end - offset);
  std::vector<Id> waiters = std::move(it->second.waiters);
  reading_.erase(it);
  return waiters;
}

bool CachedReads::present(const BlockStorage* storage, i64 page) const {
  const Bytes at(page * kPage.n);
  return cache_.resident(storage, at, kPage) || piece_at(storage, at) != nullptr;
}

i64 CachedReads::next_miss(const BlockStorage* storage, i64 from, i64 max) const {
  for (i64 p = from; p < from + max; ++p)
    if (!present(storage, p)) return p;
  return from + max;
}

i64 CachedReads::prev_miss(const BlockStorage* storage, i64 from, i64 max) const {
  for (i64 p = from; p > from - max; --p) {
    if (p < 0) return -1;  // cached from the file's start
    if (!present(storage, p)) return p;
  }
  return from - max;
}

void CachedReads::read_window(const BlockStorage& storage, Stream& s, const ReadaheadWindow& w, const Issue& issue) {
  const ReadaheadLimits& l = s.ra.limits();
  const i64 request = w.mark < 0 && l.random ? std::min<i64>(l.io_pages, FileReadahead::kForcedChunk) : l.io_pages;
  i64 end = w.start + w.count;
  if (s.file_end.is_positive()) end = std::min(end, ceil_div(s.file_end, kPage));  // nothing past the file's end
  issue_missing(storage, w.start, end, request, w.mark, &s.marks, issue);
}

void CachedReads::issue_missing(const BlockStorage& storage, i64 start, i64 end, i64 request, i64 mark,
                                std::set<i64>* marks, const Issue& issue) {
  if (storage.limits().capacity.is_positive()) end = std::min(end, storage.limits().capacity / kPage);
  i64 p = start;
  while (p < end) {
    if (present(&storage, p)) {
      ++p;
      continue;
    }
    i64 q = p + 1;
    while (q < end && q - p < request && !present(&storage, q)) ++q;
    if (marks && mark >= p && mark < q) marks->insert(mark);
    const Bytes offset(p * kPage.n), size((q - p) * kPage.n);
    reading_.emplace(PieceKey{&storage, offset}, Piece{offset + size, {}});
    issue(offset, size);
    p = q;
  }
}

const CachedReads::Piece* CachedReads::piece_at(const BlockStorage* storage, Bytes offset) const {
  auto it = reading_.upper_bound(PieceKey{storage, offset});
  if (it == reading_.begin()) return nullptr;
  --it;
  return it->first.storage == storage && offset < it->second.end ? &it->second : nullptr;
}

}  // namespace iowall
