// The flow-level simulator: max-min fairness, completions, and the planner at flow
// fidelity against the closed forms and against a bottleneck they do not model.
#include <catch2/catch.hpp>

#include "sim/plan/flow_plan.hpp"
#include "sim/run/flow_solver.hpp"

using namespace iowall;

TEST_CASE("progressive filling gives the max-min fair shares", "[flow]") {
  // Two links of 10 and 6; flow A uses both, B only the first, C only the second.
  flow::FlowSolver fs;
  const auto l1 = fs.add_resource("l1", 10), l2 = fs.add_resource("l2", 6);
  const auto a = fs.add_flow({100, 0, 0, {l1, l2}});
  const auto b = fs.add_flow({100, 0, 0, {l1}});
  const auto c = fs.add_flow({100, 0, 0, {l2}});
  const auto rate = fs.fair_rates({a, b, c});
  // l2 is the tighter: A and C get 3 each; B takes what is left of l1: 7.
  CHECK(rate[a] == Approx(3));
  CHECK(rate[c] == Approx(3));
  CHECK(rate[b] == Approx(7));
}

TEST_CASE("a flow's own cap frees capacity for the others", "[flow]") {
  flow::FlowSolver fs;
  const auto l = fs.add_resource("l", 10);
  const auto a = fs.add_flow({100, 2, 0, {l}});
  const auto b = fs.add_flow({100, 0, 0, {l}});
  const auto rate = fs.fair_rates({a, b});
  CHECK(rate[a] == Approx(2));
  CHECK(rate[b] == Approx(8));
}

TEST_CASE("flows finish in order and the survivors speed up", "[flow]") {
  flow::FlowSolver fs;
  const auto l = fs.add_resource("l", 10);
  fs.add_flow({10, 0, 0, {l}});  // 5/s until done at t=2
  fs.add_flow({30, 0, 0, {l}});  // 5/s to t=2 (10 moved), then 10/s: done at t=4
  const auto r = fs.run();
  CHECK(r.finish[0] == Approx(2));
  CHECK(r.finish[1] == Approx(4));
  CHECK(r.first_done == Approx(2));
  CHECK(r.last_done == Approx(4));
  CHECK(r.busy_bytes[l] == Approx(40));
}

namespace {
// 70B parameters on 1024 GPUs (tp 8 x pp 4 x dp 32), ZeRO-3: every rank writes.
plan::PlanInput small_plan() {
  plan::PlanInput in;
  in.state.params = 70'000'000'000;
  in.par.gpus = 1024;
  in.par.tp = 8;
  in.par.pp = 4;
  in.par.dp = 32;
  in.par.zero = 3;
  return in;
}
}  // namespace

TEST_CASE("the flow planner agrees with the closed form where both apply", "[flow][plan]") {
  plan::PlanInput in = small_plan();
  const plan::PlanResult a = plan::plan_checkpoint(in);
  const plan::PlanResult f = plan::plan_flow(in);
  CHECK(f.save.last_done == Approx(a.save.last_done).epsilon(0.01));
  CHECK(f.restore.last_done == Approx(a.restore.last_done).epsilon(0.01));
}

TEST_CASE("an oversubscribed leaf uplink slows the flow answer, not the closed form", "[flow][plan]") {
  plan::PlanInput in = small_plan();
  in.fabric.nodes_per_leaf = 32;
  const double leaves = 1024.0 / 8 / 32;
  // Each leaf's uplink at 1/4 of its nodes' share of the aggregate.
  in.fabric.leaf_uplink_bw = in.storage.write_bw / leaves / 4;
  const plan::PlanResult a = plan::plan_checkpoint(in);
  const plan::PlanResult f = plan::plan_flow(in);
  const double bytes = a.total_bytes;
  // The flow answer is the leaf-limited time: bytes per leaf over the uplink.
  CHECK(f.save.last_done - a.save.last_done ==
        Approx(bytes / leaves / in.fabric.leaf_uplink_bw - bytes / in.storage.write_bw).epsilon(0.02));
  CHECK(f.save.bottleneck.find("leaf uplink") != std::string::npos);
}

#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"
#include "sim/run/flow_routes.hpp"

#include <memory>

TEST_CASE("flow fidelity stays within 5% of chunk fidelity on large transfers at node scale", "[flow][fidelity]") {
  // Eight drives streaming into eight GPUs through a shared storage-switch uplink, and
  // a lone stream: per-stream finish times at both fidelities.
  const JsonDocument doc = load_json("topologies/seed001-gds-node.json", IOWALL_SOURCE_DIR);
  for (int streams : {1, 3, 8}) {
    SimContext ctx(1);
    Topology topo(ctx, doc.json, doc.name);
    RouteMover mover(ctx);
    const Bytes chunk(1 << 20);
    const int chunks = 256;  // 256 MiB per stream
    std::vector<flow::RouteFlow> flows;
    std::vector<Time> done(static_cast<std::size_t>(streams));
    // Two chunks in flight per stream, as a DMA engine keeps its queue fed.
    struct Feed {
      RouteMover* mover;
      const Route* route;
      Bytes chunk;
      int left, in_flight;
      Time* done;
      SimContext* ctx;
      void issue() {
        --left;
        ++in_flight;
        mover->send(*route, chunk, [this] { finished(); });
      }
      void finished() {
        --in_flight;
        if (left > 0) issue();
        else if (in_flight == 0) *done = ctx->now();
      }
    };
    std::vector<std::unique_ptr<Feed>> feeds;
    for (int s = 0; s < streams; ++s) {
      const Route& r = topo.route(*topo.find("nvme" + std::to_string(s)), *topo.find("gpu" + std::to_string(s)));
      flows.push_back({&r, chunk * chunks, DmaKind::write});
      feeds.push_back(std::make_unique<Feed>(Feed{&mover, &r, chunk, chunks, 0, &done[static_cast<std::size_t>(s)], &ctx}));
      feeds.back()->issue();
      feeds.back()->issue();
    }
    ctx.run();
    const flow::FlowResult fr = flow::run_route_flows(flows, chunk);
    for (int s = 0; s < streams; ++s) {
      INFO(streams << " streams, stream " << s);
      CHECK(fr.finish[static_cast<std::size_t>(s)] == Approx(done[static_cast<std::size_t>(s)].seconds()).epsilon(0.05));
    }
  }
}
