// One link direction simulated flit by flit: arrival times by hand.
#include <catch2/catch.hpp>

#include "models/cxl/flit_channel.hpp"
#include "tests/support/test_owner.hpp"

using namespace iowall;
using namespace iowall::cxl;

TEST_CASE("two 64 B reads sent together arrive after 2 and 3 flits, plus the link latency", "[cxl][flit]") {
  SimContext ctx(1);
  iowall::testing::Owner owner(ctx, "dev");
  const Bandwidth bw = Bandwidth::GBps(34);  // 68 B in exactly 2 ns
  FlitChannel ch(owner, "flits", layout_68(), bw);
  Time first, second;
  Time* a = &first;
  Time* b = &second;
  SimContext* c = &ctx;
  const MessageBits bits;
  // Flit 1: both DRS headers in slot 0, three data slots of the first line. Flit 2:
  // five announced slots wait, so an all-data flit: the first line's last slot and
  // three of the second's. Flit 3: the second line's last slot.
  ch.send(read_data(bits), ns(25), [a, c] { *a = c->now(); });
  ch.send(read_data(bits), ns(25), [b, c] { *b = c->now(); });
  ctx.run();
  CHECK(first == ns(2 * 2 + 25));
  CHECK(second == ns(3 * 2 + 25));
  CHECK(ch.flits() == 3);
  CHECK(ch.payload_bytes() == 128);
}

TEST_CASE("a message sent while a flit is on the wire waits for the next flit", "[cxl][flit]") {
  SimContext ctx(1);
  iowall::testing::Owner owner(ctx, "dev");
  FlitChannel ch(owner, "flits", layout_68(), Bandwidth::GBps(34));
  struct Late {
    FlitChannel* ch;
    SimContext* ctx;
    Time done;
  } late{&ch, &ctx, {}};
  Late* l = &late;
  ch.send(read_request(MessageBits{}), Time(0), [] {});
  ctx.at(ns(1), [l] { l->ch->send(read_request(MessageBits{}), Time(0), [l] { l->done = l->ctx->now(); }); });
  ctx.run();
  CHECK(late.done == ns(4));  // the second flit, back to back with the first
  CHECK(ch.flits() == 2);
}
