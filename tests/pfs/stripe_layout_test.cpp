// Stripe arithmetic: an I/O crossing stripe boundaries becomes the right RPCs to the
// right OSTs, at the right offsets within each file's objects.
#include <catch2/catch.hpp>

#include "models/storage/stripe_layout.hpp"

using namespace iowall;
using namespace iowall::storage;

namespace {
constexpr i64 KiB = 1024, MiB = 1024 * KiB;
}

TEST_CASE("an I/O is cut at stripe boundaries into RPCs to consecutive OSTs", "[pfs][stripe]") {
  StripeLayout l{Bytes(1 * MiB), 4, 8, Bytes(1024 * MiB)};
  std::vector<StripePiece> out;
  // File 3 starts on OST 3; 3.5 MiB from 0.5 MiB: the tail of stripe 0 (OST 3), stripes 1
  // and 2 whole (OSTs 4, 5), the head of stripe 3 (OST 6).
  split_io(l, 3, Bytes(MiB / 2), Bytes(3 * MiB), Bytes(4 * MiB), out);
  REQUIRE(out.size() == 4);
  CHECK(out[0].ost == 3);
  CHECK(out[0].object_offset == Bytes(MiB / 2));
  CHECK(out[0].size == Bytes(MiB / 2));
  CHECK(out[1].ost == 4);
  CHECK(out[1].object_offset == Bytes(0));
  CHECK(out[1].size == Bytes(MiB));
  CHECK(out[2].ost == 5);
  CHECK(out[3].ost == 6);
  CHECK(out[3].size == Bytes(MiB / 2));
  // Stripe 5 is the second round of the layout: object 1 (OST 4), second stripe of it.
  split_io(l, 3, Bytes(5 * MiB + 64 * KiB), Bytes(64 * KiB), Bytes(4 * MiB), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].ost == 4);
  CHECK(out[0].object_offset == Bytes(MiB + 64 * KiB));
}

TEST_CASE("layouts wrap around the OSTs, and RPCs are at most max_rpc", "[pfs][stripe]") {
  StripeLayout l{Bytes(4 * MiB), 3, 4, Bytes(64 * MiB)};
  std::vector<StripePiece> out;
  // File 2 on OSTs 2, 3, 0; one 4 MiB stripe in 1 MiB RPCs.
  split_io(l, 2, Bytes(8 * MiB), Bytes(4 * MiB), Bytes(MiB), out);
  REQUIRE(out.size() == 4);
  for (const StripePiece& p : out) {
    CHECK(p.ost == 0);
    CHECK(p.size == Bytes(MiB));
  }
  CHECK(out[3].object_offset == Bytes(3 * MiB));
  // Sizes add up to the I/O, and each file's object holds ceil(16 stripes / 3) stripes.
  split_io(l, 0, Bytes(0), Bytes(64 * MiB), Bytes(4 * MiB), out);
  i64 total = 0;
  for (const StripePiece& p : out) total += p.size.n;
  CHECK(total == 64 * MiB);
  CHECK(out.size() == 16);
  CHECK(l.object_size() == Bytes(6 * 4 * MiB));
}
