// Memory registration cost and seed 001's Registration Efficiency Ratio.
#include <catch2/catch.hpp>

#include "models/rdma/registration.hpp"

using namespace iowall;
using namespace iowall::literals;
using rdma::MemoryKind;

namespace {
rdma::RegistrationCost cost(MemoryKind k, Json j = Json::object()) {
  return rdma::RegistrationCost::read(Params(std::move(j), {"test", ""}), k);
}
const Bandwidth k100G = Bandwidth::Gbps(100);
}  // namespace

TEST_CASE("registration cost is fixed plus pages times per-page cost", "[rdma][registration]") {
  // Seed 001: 1 GB (its 262,144 pages: 1 GiB) at 1 us per 4 KiB page is about 262 ms.
  const auto host = cost(MemoryKind::host, {{"per_page", "1 us"}, {"fixed", "10 us"}});
  CHECK(host.pages(1_GiB) == 262144);
  CHECK(host.reg_time(1_GiB) == 10_us + 1_us * 262144);
  // A partial page still pins a whole page.
  CHECK(host.pages(Bytes(4097)) == 2);
  // GPU pages are 16x larger, so 16x fewer entries at the same per-page cost.
  const auto gpu = cost(MemoryKind::gpu, {{"per_page", "1 us"}});
  CHECK(host.pages(1_GiB) == 16 * gpu.pages(1_GiB));
}

TEST_CASE("seed 001's R = 0.23 follows from its own 1 us per page, not from the measured 0.39 us",
          "[rdma][registration]") {
  const rdma::RegistrationRun run{Bytes(1'000'000), Bytes(1'000'000), k100G, 1, true};
  const auto seed = rdma::simulate_registration(cost(MemoryKind::host, {{"per_page", "1 us"}}), run);
  CHECK(seed.t_transfer == 80_us);
  CHECK(seed.efficiency == Approx(0.23).margin(0.01));
  const auto measured = rdma::simulate_registration(cost(MemoryKind::host), run);
  CHECK(measured.efficiency > 0.40);
  CHECK(measured.efficiency < 0.45);
}

TEST_CASE("persistent registration amortizes: R rises with the I/O count", "[rdma][registration]") {
  // Seed 001: 50 us once, then 80 us transfers: R > 0.86 after 4 I/Os.
  const auto gpu = cost(MemoryKind::gpu, {{"per_page", "0 ns"}});
  double last = 0;
  for (i64 n : {1, 2, 4, 16}) {
    const auto r = rdma::simulate_registration(gpu, {Bytes(1'000'000), Bytes(1'000'000), k100G, n, false});
    CHECK(r.efficiency > last);
    last = r.efficiency;
    if (n == 4) CHECK(r.efficiency > 0.86);
  }
  // Per I/O, R does not depend on the count.
  const auto host = cost(MemoryKind::host);
  const auto one = rdma::simulate_registration(host, {1_MiB, 1_MiB, k100G, 1, true});
  const auto many = rdma::simulate_registration(host, {64_MiB, 1_MiB, k100G, 64, true});
  CHECK(one.efficiency == Approx(many.efficiency));
  CHECK(many.total == one.total * 64);
}

TEST_CASE("crossover I/O grows with the persistent buffer and is 1 when it registers faster",
          "[rdma][registration]") {
  const auto host = cost(MemoryKind::host), gpu = cost(MemoryKind::gpu);
  i64 last = 0;
  for (Bytes b : {1_MiB, 16_MiB, 256_MiB, 1_GiB}) {
    const i64 n = rdma::crossover_io(host, gpu, b, 1_MiB);
    CHECK(n >= last);
    // At n the GPU total is no longer; at n - 1 it still was.
    CHECK(gpu.reg_time(b) <= host.reg_time(1_MiB) * n);
    if (n > 1) CHECK(gpu.reg_time(b) > host.reg_time(1_MiB) * (n - 1));
    last = n;
  }
  CHECK(last > 1);
}

TEST_CASE("registering more memory than exists is bad input", "[rdma][registration][errors]") {
  const auto host = cost(MemoryKind::host, {{"capacity", "512 GiB"}});
  CHECK_THROWS_AS(rdma::simulate_registration(host, {Bytes(513LL << 30), 1_MiB, k100G, 1, true}), InputError);
  CHECK_NOTHROW(rdma::simulate_registration(host, {512_GiB, 1_MiB, k100G, 1, false}));
  CHECK_THROWS_AS(cost(MemoryKind::host, {{"per_page", "0.39"}}), InputError);
}
