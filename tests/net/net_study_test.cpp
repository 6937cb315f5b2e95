// The study layer on the fabric: studies run by name from one Params, return typed
// results, refuse unknown keys, document their parameters; sender controls by name.
#include <catch2/catch.hpp>

#include <algorithm>

#include "models/net/congestion_control.hpp"
#include "models/net/studies.hpp"
#include "tests/support/fabric_config.hpp"

using namespace iowall;
using namespace iowall::net;

namespace {
std::unique_ptr<StudyResult> run(const char* study, Json params, std::uint64_t seed = 1) {
  StudyEnv env;
  env.seed = seed;
  return run_study(study, Params(std::move(params), {"test", ""}), env);
}
}  // namespace

TEST_CASE("a study runs by name from one Params and returns its typed result", "[net][study]") {
  const auto r = run("net_headroom", {{"cable", "100 m"}});
  const auto* h = dynamic_cast<const HeadroomStudy::Result*>(r.get());
  REQUIRE(h != nullptr);
  CHECK(h->headroom.bytes(Bandwidth::Gbps(100)) == Bytes(71632));  // as `iowall net headroom --cable "100 m"`
  CHECK(r->to_json()["headroom_bytes"] == 71632);
  CHECK(r->result_kind().empty());
  // The same seed gives the same bytes; the fabric parameters travel in the same object.
  const Json incast = {{"senders", 3}, {"duration", "4 ms"}, {"from", "2 ms"}, {"window", "1 ms"}, {"xoff", "512 KB"}};
  CHECK(run("net_incast", incast)->to_json() == run("net_incast", incast)->to_json());
}

TEST_CASE("a study refuses unknown keys and bad values before any work, naming the key", "[net][study][errors]") {
  auto fails_at = [](const char* study, Json params, const std::string& pointer) {
    try {
      run(study, std::move(params));
    } catch (const InputError& e) {
      CHECK(e.pointer() == pointer);
      return;
    }
    FAIL("no InputError for " << pointer);
  };
  fails_at("net_incast", {{"bogus", 1}}, "/bogus");
  fails_at("net_incast", {{"duration", "2 s"}}, "/duration");
  fails_at("net_incast", {{"from", "30 ms"}}, "/from");
  fails_at("net_incast", {{"window", "0 ms"}}, "/window");
  fails_at("net_skid", {{"xoff", "32 MB"}}, "/xoff");
  fails_at("rdma_crossover", {{"host_fixed", "x"}}, "/host_fixed");
  fails_at("pcie_bw", {{"lanes", 3}}, "/lanes");
  fails_at("cxl_flit", {{"flit", 128}}, "/flit");
}

TEST_CASE("iowall models documents each study's parameters with their sources", "[net][study]") {
  const ModelEntry* e = ModelRegistry::instance().find("study", "net_incast");
  REQUIRE(e != nullptr);
  const ModelDoc doc = e->describe();
  std::vector<std::string> names;
  for (const ParamInfo& p : doc.params) {
    names.push_back(p.name);
    CHECK_FALSE(p.source.empty());
  }
  for (const char* key : {"rate", "cable", "duration", "from", "senders", "window", "xoff", "kmin", "dcqcn", "nscc"})
    CHECK(std::find(names.begin(), names.end(), key) != names.end());
  for (const char* study : {"net_headroom", "net_skid", "net_spread", "net_multipath", "rdma_reg", "rdma_crossover",
                            "rdma_mtt", "cxl_kvcache", "cxl_flit", "pcie_bw", "pcie_dma"})
    CHECK(StudyRegistry::instance().find(study) != nullptr);
}

TEST_CASE("the sender control is chosen by name from the fabric's configuration", "[net][study]") {
  using iowall::testing::fabric_config;
  CHECK(sender_control_name(fabric_config()) == "dcqcn");
  CHECK(sender_control_name(fabric_config({{"nscc", true}})) == "nscc");
  CHECK(sender_control_name(fabric_config({{"dcqcn", false}})) == "line_rate");
  SimContext ctx(1);
  Fabric f(ctx, "f", fabric_config());
  FabricCore core(f, fabric_config());
  CHECK_THROWS_AS(make_sender_control("bbr", core), std::logic_error);
}
