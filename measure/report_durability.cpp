// The durability and page-cache parts of a measurement's output: fio's "sync" section,
// the time until durable per repeat, the kernel's dirty-page counters and vm.dirty_*.
#include <algorithm>

#include <fmt/format.h>

#include "measure/report.hpp"

namespace iowall::measure {
namespace {

using ojson = nlohmann::ordered_json;

ojson counter(const Counter& c) { return c ? ojson(*c) : ojson(nullptr); }

ojson gauges_json(const DirtyCounters& c) {
  return {{"dirty_bytes", counter(c.dirty_bytes)},
          {"writeback_bytes", counter(c.writeback_bytes)},
          {"nr_dirty", counter(c.nr_dirty)},
          {"nr_writeback", counter(c.nr_writeback)}};
}

ojson counters_json(const DirtyCounters& c) {
  ojson j = gauges_json(c);
  j["nr_dirtied"] = counter(c.nr_dirtied);
  j["nr_written"] = counter(c.nr_written);
  return j;
}

Counter difference(const Counter& after, const Counter& before) {
  return after && before ? Counter(*after - *before) : std::nullopt;
}

std::string mib(const Counter& c) { return c ? fmt::format("{:.0f}", static_cast<double>(*c) / (1 << 20)) : "?"; }

}  // namespace

ojson sync_json(const DirectionStats& s) {
  ojson j;
  j["total_ios"] = s.ops;
  j["lat_ns"] = latency_json(s.clat_ns);
  return j;
}

DurableFigures durable_figures(const RepeatResult& r) {
  DurableFigures f;
  std::optional<double> first, done, durable;
  bool all_durable = true;
  for (const auto& t : r.threads) {
    f.write_bytes += t.write.bytes;
    f.unsynced_writes += t.unsynced_writes;
    if (!t.first_write_s) continue;
    first = std::min(first.value_or(*t.first_write_s), *t.first_write_s);
    if (t.writes_done_s) done = std::max(done.value_or(*t.writes_done_s), *t.writes_done_s);
    if (t.durable_s)
      durable = std::max(durable.value_or(*t.durable_s), *t.durable_s);
    else
      all_durable = false;
  }
  if (first && done) f.write_phase_s = *done - *first;
  if (first && durable && all_durable) f.durable_s = *durable - *first;
  return f;
}

void add_durability_json(ojson& rep, const RepeatResult& r) {
  DirectionStats all;
  for (const auto& t : r.threads) {
    all.clat_ns.merge(t.sync.clat_ns);
    all.ops += t.sync.ops;
  }
  const DurableFigures f = durable_figures(r);
  auto rate = [&](const std::optional<double>& s) {
    return s && *s > 0 ? ojson(static_cast<std::uint64_t>(static_cast<double>(f.write_bytes) / *s)) : ojson(nullptr);
  };
  rep["sync"] = sync_json(all);
  rep["write_phase_s"] = f.write_phase_s ? ojson(*f.write_phase_s) : ojson(nullptr);
  rep["write_phase_bw_bytes"] = rate(f.write_phase_s);
  rep["durable_s"] = f.durable_s ? ojson(*f.durable_s) : ojson(nullptr);
  rep["durable_bw_bytes"] = rate(f.durable_s);
  rep["unsynced_writes"] = f.unsynced_writes;
}

ojson page_cache_json(const PageCacheUsage& u) {
  ojson j;
  j["before"] = counters_json(u.before);
  j["after"] = counters_json(u.after);
  j["peak"] = gauges_json(u.peak);
  j["pages_dirtied"] = counter(difference(u.after.nr_dirtied, u.before.nr_dirtied));
  j["pages_written"] = counter(difference(u.after.nr_written, u.before.nr_written));
  j["samples"] = u.samples;
  j["sample_period_ms"] = u.sample_period_ms;
  return j;
}

ojson vm_json(const VmDirtySettings& v) {
  return {{"dirty_ratio", counter(v.dirty_ratio)},
          {"dirty_background_ratio", counter(v.dirty_background_ratio)},
          {"dirty_bytes", counter(v.dirty_bytes)},
          {"dirty_background_bytes", counter(v.dirty_background_bytes)},
          {"dirty_expire_centisecs", counter(v.dirty_expire_centisecs)},
          {"dirty_writeback_centisecs", counter(v.dirty_writeback_centisecs)},
          {"mem_total_bytes", counter(v.mem_total_bytes)},
          {"mem_available_bytes", counter(v.mem_available_bytes)}};
}

std::string durability_summary(const RepeatResult& r) {
  const DurableFigures f = durable_figures(r);
  const double gib = static_cast<double>(f.write_bytes) / (1024.0 * 1024.0 * 1024.0);
  std::string s = f.write_phase_s ? fmt::format("Durability: write_phase {:.6f} secs", *f.write_phase_s)
                                  : std::string("Durability: no writes");
  if (f.durable_s)
    s += fmt::format(", durable after {:.6f} secs ({:.6f} GiB/sec until durable)", *f.durable_s,
                     *f.durable_s > 0 ? gib / *f.durable_s : 0.0);
  else if (f.write_phase_s)
    s += fmt::format(", not durable: {} writes after the last sync", f.unsynced_writes);
  return s;
}

std::string page_cache_summary(const PageCacheUsage& u) {
  return fmt::format("Page cache (system): Dirty {} -> peak {} -> {} MiB, Writeback {} -> peak {} -> {} MiB, "
                     "pages dirtied {}, written {}",
                     mib(u.before.dirty_bytes), mib(u.peak.dirty_bytes), mib(u.after.dirty_bytes),
                     mib(u.before.writeback_bytes), mib(u.peak.writeback_bytes), mib(u.after.writeback_bytes),
                     difference(u.after.nr_dirtied, u.before.nr_dirtied).value_or(-1),
                     difference(u.after.nr_written, u.before.nr_written).value_or(-1));
}

}  // namespace iowall::measure
