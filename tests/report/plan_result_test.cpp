// The checkpoint plan's typed result and its one JSON writer: a plan made by the planner
// comes back equal from its JSON (with and without the inverse answers and the async
// flush, and with a node's simulation); a plan file missing a phase or with a field of the wrong type is refused naming
// the file and the pointer.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/plan/plan_report.hpp"
#include "sim/report/plan_result_json.hpp"
#include "sim/report/result_file.hpp"

using namespace iowall;

namespace {

PlanCheckpointResult planned(nlohmann::json settings) {
  std::map<std::string, std::string> origin;
  for (const auto& item : settings.items()) origin[item.key()] = "--" + item.key();
  plan::PlanRequest q = plan::request_from_settings(settings, origin);
  q.name = "round-trip";
  return plan::plan_result(q, plan::answer(q));
}

}  // namespace

TEST_CASE("a plan's typed result comes back equal from its JSON", "[report][result][plan]") {
  const nlohmann::json base = {{"gpus", "64"}, {"tp", "8"}, {"dp", "8"}, {"params", "70e9"}};
  nlohmann::json asked = base;
  asked["async"] = true;
  asked["target_overhead"] = "1%";
  asked["window"] = "60 s";
  // A node's simulation, with the buffered path's first save beside the periodic one.
  const nlohmann::json node = {{"gpus", "8"}, {"params", "8B"}, {"node", "gpu-machine-h200"}, {"path", "buffered"}};
  for (const nlohmann::json& settings : {base, asked, node}) {
    const PlanCheckpointResult r = planned(settings);
    INFO(settings.dump());
    CHECK(r.save.last_done_s > 0);
    CHECK_FALSE(r.save.bottleneck.empty());
    const nlohmann::json j = to_json(r);
    CHECK(j["iowall_result"] == result_marker("plan_checkpoint"));
    const PlanCheckpointResult back = plan_result_from_json(nlohmann::json::parse(j.dump()), "plan.json");
    CHECK(back == r);
    CHECK(to_json(back).dump() == j.dump());
  }
  REQUIRE(planned(node).node);
  CHECK(planned(node).node->first_save_s > planned(node).node->save_s);
  const PlanCheckpointResult with = planned(asked);
  CHECK(with.flush);
  CHECK(with.inverse_bandwidth);
  CHECK(with.inverse_window);
  REQUIRE(with.overhead_vs_bandwidth);
  CHECK_FALSE(with.overhead_vs_bandwidth->points.empty());
}

TEST_CASE("a plan file missing a phase or with a wrong-typed field is refused with its pointer", "[report][result][plan]") {
  const nlohmann::json good = to_json(planned({{"gpus", "64"}, {"tp", "8"}, {"dp", "8"}, {"params", "70e9"}}));
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"/save", nullptr, "p.json: /save: missing or not an object"},
      {"/restore/last_done_s", "soon", "p.json: /restore/last_done_s: not a number"},
      {"/state/writers", 1.5, "p.json: /state/writers: not an integer"},
      {"/warnings/0", 3, "p.json: /warnings/0: not a string"},
      {"/overhead_vs_bandwidth/points/2/gds_overhead", "low",
       "p.json: /overhead_vs_bandwidth/points/2/gds_overhead: not a number"},
      {"/overhead_vs_bandwidth/per_node", "no", "p.json: /overhead_vs_bandwidth/per_node: not true or false"},
  };
  for (const Case& c : cases) {
    nlohmann::json bad = good;
    if (c.pointer == std::string("/warnings/0")) bad["warnings"] = nlohmann::json::array({"w"});
    bad[nlohmann::json::json_pointer(c.pointer)] = c.value;
    INFO(c.pointer);
    try {
      (void)plan_result_from_json(bad, "p.json");
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).rfind(c.message, 0) == 0);
    }
  }
}
