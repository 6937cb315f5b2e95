// Packs each CXL.mem message alone and as a stream on the configured link's flits.
#include "models/cxl/flit_study.hpp"

#include <fmt/format.h>

#include "models/cxl/flit_packer.hpp"

namespace iowall::cxl {

FlitStudy::Config FlitStudy::read_config(const Params& p) {
  Config c;
  constexpr i64 kWide = i64{1} << 31;  // checked together below
  c.link.gen = static_cast<int>(p.get_int("gen", 5, -kWide, kWide, "PHY generation: 5 or 6", "CXL 2.0/3.x"));
  c.link.lanes = static_cast<int>(p.get_int("lanes", 16, -kWide, kWide, "link width: 1, 2, 4, 8 or 16", "CXL x16"));
  c.link.flit = static_cast<int>(p.get_int("flit", 68, -kWide, kWide, "flit size: 68 or 256", "CXL 2.0 specification"));
  if (const LinkProblem bad = check(c.link); !bad.key.empty()) p.fail(bad.key, bad.message);
  return c;
}

FlitStudy::Result FlitStudy::run(const Config& c, const StudyEnv&) {
  const LinkConfig& l = c.link;
  const FlitLayout layout = l.layout();
  Result r;
  r.config = c;
  const std::pair<const char*, Message> messages[] = {{"M2S Req (MemRd)", read_request(l.bits)},
                                                      {"S2M DRS (MemData, 64 B)", read_data(l.bits)},
                                                      {"M2S RwD (MemWr, 64 B)", write_request(l.bits)},
                                                      {"S2M NDR (Cmp)", write_completion(l.bits)}};
  for (const auto& [name, m] : messages) {
    std::vector<std::uint32_t> done;
    FlitPacker alone(layout);
    alone.push(m, 0);
    i64 lone_flits = 0;
    while (!alone.empty()) lone_flits += (alone.next_flit(done), 1);
    r.rows.push_back({name, m, lone_flits, wire_bytes_per_message(layout, m)});
  }
  r.ceiling = read_payload_ceiling(l);
  return r;
}

Json FlitStudy::Result::to_json() const {
  const LinkConfig& c = config.link;
  Json rows_json = Json::array();
  for (const Row& r : rows)
    rows_json.push_back({{"message", r.message}, {"header_bits", r.m.header_bits}, {"data_slots", r.m.data_slots},
                         {"flits_alone", r.flits_alone}, {"wire_bytes_streaming", r.wire_bytes}});
  return {{"link", c.describe()}, {"line_rate_GBps", c.bandwidth().GBps_value()}, {"messages", rows_json},
          {"read_payload_ceiling_GBps", ceiling.GBps_value()}};
}

std::string FlitStudy::Result::to_text() const {
  const LinkConfig& c = config.link;
  const FlitLayout l = c.layout();
  std::string text = fmt::format("{}: {} B flits, {} slots, {} header bits in slot 0; line rate {:.2f} GB/s per direction\n",
                                 c.describe(), l.flit_bytes, l.slots, l.hslot_bits, c.bandwidth().GBps_value());
  for (const Row& r : rows)
    text += fmt::format("  {:<24} alone {} flit(s) = {:>4} B; streaming {:.2f} B each\n", r.message, r.flits_alone,
                        r.flits_alone * l.flit_bytes, r.wire_bytes);
  text += fmt::format("read payload ceiling (64 B per DRS, link kept busy): {:.2f} GB/s ({:.1f}% of line rate)\n",
                      ceiling.GBps_value(), 100.0 * ceiling.GBps_value() / c.bandwidth().GBps_value());
  return text;
}

IOWALL_REGISTER_STUDY(FlitStudy, "cxl_flit", "what each CXL.mem message costs in flits, and the read ceiling");

}  // namespace iowall::cxl
