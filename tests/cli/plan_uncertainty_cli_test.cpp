// Runs the real `iowall plan checkpoint --uncertainty N` and `iowall sweep --uncertainty N`:
// the intervals of a storage-bound save follow the drawn bandwidth as size / bandwidth
// does, the sensitivity names the input that moves the answer with the elasticity the
// closed form gives, the same seed gives the same bytes for any --jobs and under mpirun,
// and the nominal answer is the plain command's. Bad uncertainty input is in tests/cli/bad_inputs.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"
#include "tests/support/same_for_jobs.hpp"

namespace {

using Result = iowall::testing::CliResult;
using nlohmann::json;
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }

// 70e9 params x 14 B = 980 GB from 64 writers on 128 nodes into an nvme-of target whose
// aggregate (100 GB/s) is far below the nodes' NICs (128 x 100 GB/s): the save is bound by
// the aggregate, save = 980 GB / storage_bw + the barrier and file terms.
const std::string kPlan = "plan checkpoint --params 70e9 --gpus 1024 --tp 8 --pp 8 --request-latency '20 us .. 40 us'";

}  // namespace

TEST_CASE("plan --uncertainty: a storage-bound save's interval is size / bandwidth at the bandwidth's quantiles",
          "[cli][uncertainty][plan]") {
  const Result plain = cli(kPlan + " --storage-bw '100 GB/s' --output-format json");
  const Result with = cli(kPlan + " --storage-bw '100 GB/s +- 10%' --uncertainty 400 --output-format json");
  INFO(with.err);
  REQUIRE(plain.code == 0);
  REQUIRE(with.code == 0);
  const json p = json::parse(plain.out), w = json::parse(with.out);
  REQUIRE(p["save"]["bottleneck"].get<std::string>().find("aggregate") != std::string::npos);
  const double bytes = p["save"]["bytes"], bw = 100e9, save = p["save"]["last_done_s"];
  const double extra = save - bytes / bw;  // the terms that do not scale with the bandwidth
  REQUIRE(extra >= 0);
  REQUIRE(extra < 0.01 * save);
  const json& iv = w["intervals"]["save_s"];
  // Normal with sd 10%: the 5% and 95% quantiles of the bandwidth are 1 -+ 1.645 x 10% of it
  // (the truncation at 3 sd moves them by under 0.2%); the save time falls as the bandwidth
  // rises, so its 95% quantile is the bandwidth's 5% one. 400 samples estimate a 5% quantile
  // to about 1.1% of the bandwidth (sd of the order statistic: sqrt(0.05 x 0.95 / 400) / 0.103
  // = 0.106 sd); 4% is over three of those.
  CHECK(iv["high"].get<double>() == Approx(bytes / (bw * (1 - 0.1645)) + extra).epsilon(0.04));
  CHECK(iv["low"].get<double>() == Approx(bytes / (bw * (1 + 0.1645)) + extra).epsilon(0.04));
  CHECK(iv["median"].get<double>() == Approx(save).epsilon(0.03));
  // Hard bounds: every draw lies within the truncation at 3 sd, 70 .. 130 GB/s.
  CHECK(iv["low"].get<double>() >= bytes / (1.3 * bw) + extra);
  CHECK(iv["high"].get<double>() <= bytes / (0.7 * bw) + extra);
  for (const char* f : {"save_s", "restore_s", "overhead"}) {
    INFO(f);
    const json& v = w["intervals"][f];
    CHECK(v["low"].get<double>() < v["median"].get<double>());
    CHECK(v["median"].get<double>() < v["high"].get<double>());
  }
  CHECK(w["uncertainty"]["samples"] == 400);
  CHECK(w["uncertainty"]["inputs"].size() == 2);
  // The nominal answer is the plain plan's; the settings echo the values as given.
  json stripped = w;
  for (const char* k : {"intervals", "uncertainty", "settings"}) stripped.erase(k);
  json plain_stripped = p;
  plain_stripped.erase("settings");
  CHECK(stripped == plain_stripped);
  CHECK(w["settings"]["storage_bw"] == "100 GB/s +- 10%");
  // Without --uncertainty an uncertain setting plans at its nominal value.
  const Result nominal = cli(kPlan + " --storage-bw '100 GB/s +- 10%' --output-format json");
  REQUIRE(nominal.code == 0);
  json n = json::parse(nominal.out);
  n.erase("settings");
  CHECK(n == plain_stripped);
}

TEST_CASE("plan --sensitivity: elasticity and direction of each input", "[cli][uncertainty][plan]") {
  const Result r = cli(kPlan + " --storage-bw '100 GB/s +- 10%' --sensitivity --output-format json");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = json::parse(r.out)["sensitivity"];
  CHECK(s["metric"] == "overhead");
  REQUIRE(s["rows"].size() == 2);
  // save = B / bw (+ 0.1% of fixed terms): from bw (1 - 0.1645) to bw (1 + 0.1645) the save
  // changes by (1/1.1645 - 1/0.8355) = -0.338 of its nominal over a 0.329 change of the
  // input: elasticity -1.03.
  CHECK(s["rows"][0]["input"] == "plan.storage_bw");
  const json& e = s["rows"][0]["effects"]["checkpoint"]["save_s"];
  CHECK(e["elasticity"].get<double>() == Approx(-1.028).epsilon(0.01));
  CHECK(e["direction"] == "down");
  // The request latency does not bind (32 x 1 MiB in flight per rank at 40 us is 840 GB/s
  // per rank): no effect, ranked last.
  CHECK(s["rows"][1]["input"] == "plan.request_latency");
  CHECK(s["rows"][1]["effects"]["checkpoint"]["save_s"]["direction"] == "none");
  const Result table = cli(kPlan + " --storage-bw '100 GB/s +- 10%' --uncertainty 20 --sensitivity");
  REQUIRE(table.code == 0);
  CHECK(table.out.find("90% intervals over 20 samples (seed 1)") != std::string::npos);
  CHECK(table.out.find("sensitivity, ranked by overhead") != std::string::npos);
}

TEST_CASE("plan --uncertainty with --node: the node's uncertain drives are drawn, byte-identical for any --jobs "
          "and under mpirun",
          "[cli][uncertainty][plan]") {
  // workstation-gen5: one GPU and two pm1743s, whose preset carries bandwidth ranges.
  const std::string args =
      "plan checkpoint --params 1e9 --gpus 1 --node workstation-gen5 --node-sample '16 MiB' --uncertainty 6 "
      "--sensitivity --output-format json";
  // Under mpirun two ranks share the 6 samples and the 4 one-at-a-time runs (task i on
  // rank i mod 2) and the two runs of the top inputs together; rank 0 alone prints.
  const Result one = iowall::testing::run_same_for_jobs_and_ranks(args);
  const Result seed2 = cli(args + " --uncertainty-seed 2");
  REQUIRE(seed2.code == 0);
  CHECK(seed2.out != one.out);
  const json w = json::parse(one.out);
  std::vector<std::string> labels;
  for (const json& in : w["uncertainty"]["inputs"]) labels.push_back(in["label"]);
  CHECK(labels == std::vector<std::string>{"pm1743.read_bandwidth", "pm1743.write_bandwidth"});
  // The save is bound by the drives' writes (6 .. 6.6 GB/s, mode 6.6): drawing them can only
  // lower the bandwidth, so the save's interval lies at or above the nominal save.
  CHECK(w["intervals"]["save_s"]["low"].get<double>() >= w["save"]["last_done_s"].get<double>() * (1 - 1e-9));
  CHECK(w["intervals"]["save_s"]["high"].get<double>() > w["save"]["last_done_s"].get<double>());
  // The write bandwidth moves the save and not the restore; the read bandwidth the reverse.
  for (const json& row : w["sensitivity"]["rows"]) {
    const json& e = row["effects"]["checkpoint"];
    const bool write = row["input"] == "pm1743.write_bandwidth";
    CHECK(e[write ? "save_s" : "restore_s"]["direction"] == "down");
    CHECK(e[write ? "restore_s" : "save_s"]["direction"] == "none");
  }
}

TEST_CASE("sweep --uncertainty: every point carries its run's intervals, the same for any --jobs", "[cli][uncertainty]") {
  const std::string sc = "/tmp/iowall_sweep_uncertainty_" + std::to_string(getpid()) + ".json";
  std::ofstream(sc) << R"({
  "name": "tiny", "topology": ")" IOWALL_SOURCE_DIR R"(/topologies/workstation-gen5.json",
  "workload": {"kind": "sequential_read", "size": "64 MiB", "io_size": "1 MiB", "threads": 4,
               "targets": "gpu0", "storage": "nvme0,nvme1"},
  "paths": ["gpu_direct", "cpu_gpu"], "seed": 5})";
  const std::string args = "sweep " + sc + " --axis '/workload/io_size=\"256 KiB\",\"1 MiB\"' --uncertainty 6 --output-format json";
  const Result one = iowall::testing::run_same_for_jobs(args);
  // Point 1 is the scenario at 1 MiB: its intervals are `run --uncertainty 6`'s.
  const Result run = cli("run " + sc + " --uncertainty 6 --output-format json");
  REQUIRE(run.code == 0);
  const json point = json::parse(one.out)["points"][1]["result"], alone = json::parse(run.out);
  CHECK(point["metrics"] == alone["metrics"]);
  CHECK(point["uncertainty"] == alone["uncertainty"]);
  const Result table = cli("sweep " + sc + " --axis '/workload/io_size=\"256 KiB\",\"1 MiB\"' --uncertainty 6");
  REQUIRE(table.code == 0);
  CHECK(table.out.find("90%: ") != std::string::npos);
}

TEST_CASE("plan --uncertainty with --cluster: the description's bandwidths given with a spread are drawn",
          "[cli][uncertainty][plan]") {
  // 2 servers x min(2 x 400 Gb/s, 4 drives x D), D uniform over 6 .. 6.6 GB/s: the drives
  // bind (48 .. 52.8 GB/s in all), so the save is 1 TB / (8 x D) + the terms that do not
  // scale with the bandwidth.
  const std::string file = "/tmp/iowall_cluster_spread_" + std::to_string(getpid()) + ".json";
  const auto write = [&](const std::string& drive_write) {
    std::ofstream(file) << R"({"name": "small", "nodes": {"topology": "dgx-h100", "count": 4, "nic": "400 Gb/s"},
      "fabric": {"kind": "rail_optimized", "nodes_per_leaf": 2, "link": "400 Gb/s"},
      "storage": {"kind": "pfs", "servers": 2, "server": {"nics": 2, "nic": "400 Gb/s", "drives": 4,
                  "drive_write": ")" + drive_write + R"(", "drive_read": "13 GB/s"}}})";
  };
  const std::string args = "plan checkpoint --cluster " + file + " --checkpoint-size '1 TB' --tp 8 --output-format json";
  // Without --uncertainty the range plans at its middle.
  write("6.3 GB/s");
  const Result plain = cli(args);
  write("6 GB/s .. 6.6 GB/s");
  const Result nominal = cli(args);
  REQUIRE(plain.code == 0);
  REQUIRE(nominal.code == 0);
  CHECK(nominal.out == plain.out);

  const Result one = iowall::testing::run_same_for_jobs(args + " --uncertainty 40 --sensitivity");
  const json w = json::parse(one.out);
  REQUIRE(w["save"]["bottleneck"].get<std::string>().find("aggregate") != std::string::npos);
  REQUIRE(w["uncertainty"]["inputs"].size() == 1);
  const json& in = w["uncertainty"]["inputs"][0];
  CHECK(in["label"] == "cluster.storage.server.drive_write");
  CHECK(in["where"] == file + "#/storage/server/drive_write");
  const double bytes = w["save"]["bytes"], save = w["save"]["last_done_s"];
  const double extra = save - bytes / (8 * 6.3e9);
  REQUIRE(extra >= 0);
  REQUIRE(extra < 0.01 * save);
  // Every draw lies in the range: the interval within the saves at its ends.
  const json& iv = w["intervals"]["save_s"];
  CHECK(iv["low"].get<double>() >= bytes / (8 * 6.6e9) + extra - 1e-6);
  CHECK(iv["high"].get<double>() <= bytes / (8 * 6.0e9) + extra + 1e-6);
  CHECK(iv["low"].get<double>() < iv["high"].get<double>());
  // The restore reads at 13 GB/s per drive, fixed: its interval is a point.
  CHECK(w["intervals"]["restore_s"]["low"] == w["intervals"]["restore_s"]["high"]);
  // save = B / (8 D): from D's 5% quantile (6.03) to its 95% (6.57) the save changes by
  // (6.3/6.57 - 6.3/6.03) = -0.0859 of its nominal over a 0.0857 change of D: -1.002.
  const json& e = w["sensitivity"]["rows"][0]["effects"]["checkpoint"]["save_s"];
  CHECK(e["elasticity"].get<double>() == Approx(-1.0).epsilon(0.01));
  std::remove(file.c_str());
}

TEST_CASE("plan --uncertainty --target local-nvme: the drives' published ranges are drawn unless a setting replaces them",
          "[cli][uncertainty][plan]") {
  // figures.md gives the PM1743 6.0-6.6 GB/s write and 13-14 GB/s read; the preset uses
  // 6.0 and 13 (the mode, at the low end), so drawing can only raise the node's rate.
  const std::string args = "plan checkpoint --target local-nvme --gpus 8 --params 7e9 --output-format json";
  const Result plain = cli(args);
  const Result with = cli(args + " --uncertainty 40");
  REQUIRE(plain.code == 0);
  REQUIRE(with.code == 0);
  const json p = json::parse(plain.out), w = json::parse(with.out);
  std::vector<std::string> labels;
  for (const json& in : w["uncertainty"]["inputs"]) labels.push_back(in["label"]);
  CHECK(labels == std::vector<std::string>{"local-nvme.drive_write_bw", "local-nvme.drive_read_bw"});
  CHECK(w["uncertainty"]["inputs"][0]["places"] == 8);
  REQUIRE(p["save"]["bottleneck"] == "node storage link");
  for (const char* f : {"save_s", "restore_s"}) {
    INFO(f);
    const double nominal = p[std::string(f) == "save_s" ? "save" : "restore"]["last_done_s"];
    const json& iv = w["intervals"][f];
    CHECK(iv["high"].get<double>() <= nominal * (1 + 1e-9));
    CHECK(iv["low"].get<double>() < iv["high"].get<double>());
    CHECK(iv["low"].get<double>() >= nominal * (std::string(f) == "save_s" ? 6.0 / 6.6 : 13.0 / 14) * (1 - 1e-6));
  }
  // A node read bandwidth given replaces the read range; a node bandwidth both.
  const Result read_given = cli(args + " --node-read-bw '100 GB/s' --uncertainty 4");
  REQUIRE(read_given.code == 0);
  const json r = json::parse(read_given.out);
  REQUIRE(r["uncertainty"]["inputs"].size() == 1);
  CHECK(r["uncertainty"]["inputs"][0]["label"] == "local-nvme.drive_write_bw");
  const Result both_given = cli(args + " --node-bw '40 GB/s' --uncertainty 4");
  REQUIRE(both_given.code == 0);
  CHECK(json::parse(both_given.out)["uncertainty"]["inputs"].empty());
}
