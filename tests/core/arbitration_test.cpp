#include <catch2/catch.hpp>

#include <map>

#include "sim/core/component.hpp"
#include "sim/core/server.hpp"
#include "tests/support/test_owner.hpp"

using namespace iowall;

using iowall::testing::Owner;

namespace {

// Backlogs every class with `per_class` equal jobs, runs, and returns the order served.
std::vector<int> served_order(Arbitration policy, std::vector<int> weights, int per_class, std::vector<Time> service = {}) {
  SimContext ctx(1);
  Owner owner(ctx, "sw");
  Server s(owner, "out");
  s.set_arbitration(policy, weights);
  std::vector<int> order;
  // One job occupies the server first so that every class is backlogged.
  s.submit(ns(1), Time(0), {});
  for (int j = 0; j < per_class; ++j)
    for (int c = 0; c < static_cast<int>(weights.size()); ++c)
      s.submit(service.empty() ? ns(10) : service[c], Time(0), {}, [&order, c] { order.push_back(c); }, c);
  ctx.run();
  return order;
}

std::map<int, int> first_n(const std::vector<int>& order, std::size_t n) {
  std::map<int, int> counts;
  for (std::size_t i = 0; i < n && i < order.size(); ++i) ++counts[order[i]];
  return counts;
}
}  // namespace

TEST_CASE("round-robin alternates between backlogged input ports", "[arbitration]") {
  const auto order = served_order(Arbitration::round_robin, {1, 1, 1}, 4);
  REQUIRE(order.size() == 12);
  for (std::size_t i = 0; i + 2 < order.size(); i += 3) {
    CHECK(order[i] != order[i + 1]);
    CHECK(order[i + 1] != order[i + 2]);
  }
}

TEST_CASE("weighted round-robin serves in proportion to the weights", "[arbitration]") {
  const auto order = served_order(Arbitration::weighted_round_robin, {3, 1}, 30);
  const auto counts = first_n(order, 40);
  CHECK(counts.at(0) == 30);
  CHECK(counts.at(1) == 10);
}

TEST_CASE("weighted fair queueing shares time, not jobs", "[arbitration]") {
  // Class 0's jobs take 4x longer; equal weights give equal time, so 4x fewer jobs.
  const auto order = served_order(Arbitration::weighted_fair, {1, 1}, 40, {ns(40), ns(10)});
  const auto counts = first_n(order, 25);
  CHECK(counts.at(1) == Approx(4 * counts.at(0)).margin(2));
}

TEST_CASE("strict priority drains the highest class first", "[arbitration]") {
  const auto order = served_order(Arbitration::strict_priority, {1, 1, 1}, 3);
  CHECK(order == std::vector<int>{2, 2, 2, 1, 1, 1, 0, 0, 0});
}

TEST_CASE("fifo ignores classes", "[arbitration]") {
  const auto order = served_order(Arbitration::fifo, {1, 1}, 2);
  CHECK(order == std::vector<int>{0, 1, 0, 1});
}
