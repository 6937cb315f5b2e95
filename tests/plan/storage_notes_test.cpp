// The storage notes of `iowall plan checkpoint`: where each value of the target came
// from. A value the user gave is noted as given (with where from), no note keeps naming
// the preset value it replaced, and server counts follow the bandwidth in force.
#include <catch2/catch.hpp>

#include <cmath>
#include <regex>

#include "sim/plan/plan_request.hpp"

using namespace iowall::plan;
using nlohmann::json;

namespace {

json base(const std::string& target) {
  return {{"params", "70B"}, {"gpus", 1024}, {"tp", 8}, {"pp", 4}, {"target", target}};
}

std::vector<std::string> notes_of(const json& settings, const std::map<std::string, std::string>& origin = {}) {
  return request_from_settings(settings, origin).input.storage.note_texts();
}

std::string joined(const std::vector<std::string>& notes) {
  std::string s;
  for (const std::string& n : notes) s += n + "\n";
  return s;
}

// The "N x server at B write each" counts in the notes.
std::vector<int> server_counts(const std::vector<std::string>& notes) {
  std::vector<int> counts;
  const std::regex count(R"((\d+) x (server|SSD per node) at)");
  for (const std::string& n : notes)
    for (auto it = std::sregex_iterator(n.begin(), n.end(), count); it != std::sregex_iterator(); ++it)
      counts.push_back(std::stoi((*it)[1]));
  return counts;
}

}  // namespace

TEST_CASE("without settings the notes are the preset's", "[plan][notes]") {
  for (const std::string target : {"local-nvme", "nvme-of", "pfs", "object"}) {
    INFO(target);
    CHECK(notes_of(base(target)) == storage_preset(target).note_texts());
  }
}

TEST_CASE("a given --storage-bw replaces the preset's aggregate in the notes, with servers counted from it",
          "[plan][notes]") {
  struct Case {
    const char* target;
    const char* preset_aggregate;  // what the preset's note says, not true once the bandwidth is given
    double server_bw;
  };
  for (const Case& c : {Case{"nvme-of", "8 servers x 100 GB/s", 100e9}, Case{"pfs", "16 object-storage servers", 50e9},
                        Case{"object", "aggregate 200 GB/s", 25e9}}) {
    json s = base(c.target);
    s["storage_bw"] = "1.1 TB/s";
    const std::vector<std::string> notes = notes_of(s);
    const std::string text = joined(notes);
    INFO(text);
    CHECK(text.find(c.preset_aggregate) == std::string::npos);
    CHECK(text.find("write 1.1 TB/s (given: --storage-bw)") != std::string::npos);
    CHECK(text.find("read 1.1 TB/s (given: --storage-bw)") != std::string::npos);
    // ceil(1.1 TB/s / server): 11 at 100 GB/s, 22 at 50, 44 at 25 (each quotient a rounding
    // error above the whole number, which must not add a server).
    const std::vector<int> counts = server_counts(notes);
    REQUIRE(counts.size() == 1);
    CHECK(counts[0] == static_cast<int>(std::lround(1.1e12 / c.server_bw)));
    CHECK(counts[0] * c.server_bw >= 1.1e12 * (1 - 1e-12));
    CHECK((counts[0] - 1) * c.server_bw < 1.1e12);
    // The notes on other values stay the preset's.
    CHECK(notes.size() == storage_preset(c.target).notes.size());
  }
}

TEST_CASE("server counts in the notes follow a given --server-bw, and sources name the scenario file",
          "[plan][notes]") {
  json s = base("nvme-of");
  s["storage_bw"] = "1 TB/s";
  s["server_bw"] = "40 GB/s";
  s["storage_read_bw"] = "1.5 TB/s";
  const std::vector<std::string> notes =
      notes_of(s, {{"storage_bw", "plan.json#/plan/storage_bw"}, {"server_bw", "--server-bw"}});
  const std::string text = joined(notes);
  INFO(text);
  CHECK(text.find("write 1 TB/s (given: plan.json#/plan/storage_bw)") != std::string::npos);
  CHECK(text.find("read 1.5 TB/s (given: --storage-read-bw)") != std::string::npos);
  CHECK(server_counts(notes) == std::vector<int>{25});
  CHECK(text.find("at 40 GB/s write each (given: --server-bw)") != std::string::npos);

  // Only --server-bw: the preset's aggregate counted in the new servers.
  json only = base("nvme-of");
  only["server_bw"] = "50 GB/s";
  const std::vector<std::string> n2 = notes_of(only);
  INFO(joined(n2));
  CHECK(server_counts(n2) == std::vector<int>{16});
  CHECK(joined(n2).find("write 800 GB/s (the nvme-of preset)") != std::string::npos);
}

TEST_CASE("given per-node, client, request and capacity values are noted as given", "[plan][notes]") {
  json local = base("local-nvme");
  local["node_bw"] = "30 GB/s";
  const std::string l = joined(notes_of(local));
  INFO(l);
  CHECK(l.find("8 drives x PM1743") == std::string::npos);
  CHECK(l.find("write 30 GB/s (given: --node-bw)") != std::string::npos);
  CHECK(server_counts(notes_of(local)) == std::vector<int>{5});  // ceil(30 / 6)

  json pfs = base("pfs");
  pfs["node_bw"] = "50 GB/s";
  pfs["client_bw"] = "5 GB/s";
  pfs["io_size"] = "1 MiB";
  pfs["file_latency"] = "2 ms";
  const std::string p = joined(notes_of(pfs));
  INFO(p);
  for (const char* gone : {"2 x 400 Gb/s", "at most 10 GB/s", "4 MiB RPCs", "5 ms"}) CHECK(p.find(gone) == std::string::npos);
  CHECK(p.find("per node: write 50 GB/s (given: --node-bw)") != std::string::npos);
  CHECK(p.find("at most 5 GB/s (given: --client-bw)") != std::string::npos);
  CHECK(p.find("requests of 1 MiB (given: --io-size), 8 in flight per rank (the pfs preset), 1 ms each") !=
        std::string::npos);
  CHECK(p.find("file create + commit 2 ms (given: --file-latency)") != std::string::npos);
}
