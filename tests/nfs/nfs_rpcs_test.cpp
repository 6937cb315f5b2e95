// The NFS client's RPC arithmetic: how an I/O is cut into rsize RPCs, and the spread of
// the server's cache hits.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/storage/nfs_rpcs.hpp"

using namespace iowall;
using namespace iowall::storage;

TEST_CASE("an I/O is cut into RPCs of at most rsize from its start", "[nfs][rpc]") {
  const Bytes MiB(1 << 20), KiB(1024);
  CHECK(rpc_count(MiB, MiB) == 1);
  CHECK(rpc_count(Bytes(4 * MiB.n), MiB) == 4);
  CHECK(rpc_count(MiB, Bytes(768 * KiB.n)) == 2);  // 768 KiB + 256 KiB
  CHECK(rpc_count(Bytes(4 * KiB.n), MiB) == 1);
  const RpcPiece last = rpc_piece(Bytes(8 * MiB.n), MiB, Bytes(768 * KiB.n), 1);
  CHECK(last.offset.n == 8 * MiB.n + 768 * KiB.n);
  CHECK(last.size.n == 256 * KiB.n);
}

TEST_CASE("cache hits follow the ratio to within one over any run of READs", "[nfs][cache]") {
  for (double ratio : {0.0, 0.25, 0.5, 0.9, 1.0}) {
    CacheHitPattern p(ratio);
    int hits = 0;
    for (int n = 1; n <= 1000; ++n) {
      hits += p.next() ? 1 : 0;
      REQUIRE(std::abs(hits - ratio * n) <= 1.0);
    }
  }
}
