// A process's later save through glibc's malloc ("host_memory": "allocator"): a tensor up to
// allocator_reuse_max (the mmap threshold's ceiling, 32 MiB) copies into memory an earlier
// save freed and the heap kept, a larger one into new memory mapped for it.
#include <catch2/catch.hpp>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {

Json save(i64 tensors, const std::string& memory) {
  return {{"kind", "checkpoint_save"}, {"size", "2 GiB"},     {"tensors", tensors},
          {"host_memory", memory},     {"targets", "gpu0"},   {"storage", "disk0"}};
}

Json metrics(const Json& workload) {
  const Json doc = {{"name", "a"}, {"topology", "topologies/gpu-machine-h200.json"}, {"workload", workload},
                    {"paths", Json::array({"cpu_cached"})}};
  return to_json(run_scenario(scenario_from_json(doc, "a.json", IOWALL_SOURCE_DIR)))["metrics"]["cpu_cached"];
}

std::string refusal(const Json& workload) {
  try {
    metrics(workload);
  } catch (const InputError& e) {
    return e.pointer();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("the allocator keeps a small tensor's memory for the next save and maps a large one anew",
          "[workload][checkpoint][allocator]") {
  // 256 tensors of 8 MiB are under the 32 MiB ceiling: the save is one into reused memory.
  CHECK(metrics(save(256, "allocator"))["durable_s"] == metrics(save(256, "pageable"))["durable_s"]);
  // 32 tensors of 64 MiB are over it: every page faults in, as in new memory (2 GiB / 4 KiB
  // pages x 1.98 us = 1.04 s more than the reused copy).
  const Json large = metrics(save(32, "allocator"));
  CHECK(large["durable_s"] == metrics(save(32, "pageable_fresh"))["durable_s"]);
  CHECK(double(large["durable_s"]) - double(metrics(save(32, "pageable"))["durable_s"]) > 1.0);
  // A process that raised its threshold (mallopt) keeps the large ones too.
  Json raised = save(32, "allocator");
  raised["allocator_reuse_max"] = "128 MiB";
  CHECK(metrics(raised)["durable_s"] == metrics(save(32, "pageable"))["durable_s"]);
}

TEST_CASE("the allocator's memory is refused where it does not apply, naming the key", "[workload][checkpoint][errors]") {
  Json load = save(32, "allocator");
  load["kind"] = "checkpoint_load";
  CHECK(refusal(load) == "/workload/host_memory");
  Json stray = save(32, "pageable");
  stray["allocator_reuse_max"] = "64 MiB";
  CHECK(refusal(stray) == "/workload/allocator_reuse_max");
  Json overlapped = save(32, "allocator");
  overlapped["pipeline"] = "overlapped";
  CHECK(refusal(overlapped) == "/workload/host_memory");
}
