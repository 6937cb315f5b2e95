// Runs the real `iowall` binary: exit codes, one-line errors, determinism.
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using Result = iowall::testing::CliResult;
using iowall::testing::slurp;

[[maybe_unused]] Result iowall_via(const std::string& launcher, const std::string& args) {
  return iowall::testing::run_iowall(args, launcher);
}
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }

std::string write_temp(const std::string& name, const std::string& content) {
  const std::string path = "/tmp/iowall_cli_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path) << content;
  return path;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

const char* kScenario = R"({
  "name": "tiny", "topology": "topologies/workstation-gen5.json",
  "workload": {"kind": "sequential_read", "size": "64 MiB", "io_size": "1 MiB", "threads": 4,
               "targets": "gpu0", "storage": "nvme0,nvme1"},
  "paths": ["gpu_direct", "cpu_gpu"], "seed": 5})";

}  // namespace

TEST_CASE("the same scenario and seed give byte-identical JSON", "[cli]") {
  const std::string sc = write_temp("tiny.json", kScenario);
  const Result a = cli("run " + sc + " --output-format json");
  const Result b = cli("run " + sc + " --output-format json");
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.find("\"throughput_GBps\"") != std::string::npos);
  CHECK(a.out.find("\"latency_p99_us\"") != std::string::npos);
  const Result c = cli("run " + sc + " --output-format json --seed 6");
  CHECK(c.code == 0);
  CHECK(c.out != a.out);  // the seed reaches the latency spreads
}

TEST_CASE("bad input: one line naming the file and pointer, exit code 2", "[cli][errors]") {
  struct Case {
    std::string scenario;
    std::string expect;
  };
  const std::vector<Case> cases = {
      {"{\"name\": \"x\", \"topology\": \"topologies/workstation-gen5.json\", \"workload\": {\"io_size\": \"15 parsecs\"}}",
       "/workload/io_size: \"15 parsecs\" is not a size"},
      {"{\"name\": \"x\", \"topology\": \"topologies/workstation-gen5.json\", \"workload\": {\"io_size\": 4096}}",
       "/workload/io_size: 4096 is not a size with its unit"},
      {"{\"name\": \"x\", \"topology\": \"topologies/workstation-gen5.json\", \"workload\": {\"size\": \"-1 GiB\"}}",
       "/workload/size"},
      {"{\"name\": \"x\", \"topology\": \"topologies/workstation-gen5.json\", \"workload\": {}, \"colour\": 1}",
       "unknown key"},
      {"{\"name\": \"x\", \"topology\": \"topologies/nope.json\", \"workload\": {}}", "topologies/nope.json: no such file"},
      {"{\"name\": \"x\", \"topology\": \"topologies/workstation-gen5.json\", \"workload\": {}, \"paths\": [\"gpu_drect\"]}",
       "/paths/0"},
      {"{\"name\": \"x\", \"topology\": \"topologies/workstation-gen5.json\", \"workload\": {\"targets\": \"gpu7\"}}",
       "/workload/targets: no device \"gpu7\""},
      {"{\"name\": \"x\", \"topology\": \"topologies/workstation-gen5.json\", \"workload\": {\"io_size\": \"3000 B\", \"size\": \"3 MB\", \"targets\": \"gpu0\", \"storage\": \"nvme0\"}}",
       "is not a multiple of nvme0's LBA size"},
      {"{\"name\": \"x\", \"topology\": {\"name\": \"t\", \"devices\": [{\"id\": \"g\", \"model\": \"gpu\"}], \"links\": [{\"a\": \"g.up\", \"b\": \"g.down\", \"pcie\": {}}]}, \"workload\": {}}",
       "/topology/links/0/b"},
      {"{\"name\": \"x\", \"topology\": {\"name\": \"t\", \"devices\": [{\"id\": \"g\", \"model\": \"gpu\"}], \"links\": []}, \"workload\": {}}",
       "port g.up (PCIe upstream port) is not connected"},
      {"{\"name\": \"x\",", "malformed JSON"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string sc = write_temp("bad" + std::to_string(i++) + ".json", c.scenario);
    const Result r = cli("run " + sc);
    INFO(c.scenario);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    // The message names the file it is about: the scenario, or the topology it references.
    CHECK((r.err.rfind("iowall: " + sc, 0) == 0 || r.err.rfind("iowall: topologies/", 0) == 0));
    CHECK(r.err.find(c.expect) != std::string::npos);
    CHECK(r.out.empty());
  }
  const Result missing = cli("run /nonexistent/scenario.json");
  CHECK(missing.code == 2);
  CHECK(missing.err == "iowall: /nonexistent/scenario.json: no such file\n");
  const Result usage = cli("run --bogus-flag");
  CHECK(usage.code == 2);
  const Result set_bad = cli("run --set /workload/nope/deeper=1");
  CHECK(set_bad.code == 2);
  CHECK(lines(set_bad.err) == 1);
}

TEST_CASE("overrides with set, and output to a file", "[cli]") {
  const std::string sc = write_temp("tiny2.json", kScenario);
  const std::string out = "/tmp/iowall_cli_out_" + std::to_string(getpid()) + ".json";
  const Result r = cli("run " + sc + " --set '/workload/io_size=\"256 KiB\"' --output-format json --output " + out);
  REQUIRE(r.code == 0);
  const std::string json = slurp(out);
  CHECK(json.find("\"io_size\": \"256 KiB\"") != std::string::npos);
  std::remove(out.c_str());
  const Result nodir = cli("run " + sc + " --output /no/such/dir/out.json");
  CHECK(nodir.code == 2);
  CHECK(nodir.err.find("does not exist") != std::string::npos);
}

TEST_CASE("models and topo show describe what is there", "[cli]") {
  const Result m = cli("models nvme_ssd");
  REQUIRE(m.code == 0);
  CHECK(m.out.find("read_latency") != std::string::npos);
  CHECK(m.out.find("Micron 9550") != std::string::npos);  // sources are shown
  CHECK(m.out.find("preset pm1743") != std::string::npos);
  CHECK(cli("models no_such_model").code == 2);
  const Result t = cli("topo show topologies/workstation-gen5.json");
  REQUIRE(t.code == 0);
  CHECK(t.out.find("nvme0    -> gpu0") != std::string::npos);
  CHECK(t.out.find("narrowest") != std::string::npos);
  const Result dot = cli("topo show topologies/workstation-gen5.json --dot");
  CHECK(dot.out.find("graph G") != std::string::npos);
  const Result schema = cli("schema topology");
  CHECK(schema.code == 0);
  CHECK(schema.out.find("\"nvme_ssd\"") != std::string::npos);
}

TEST_CASE("the trace opens as trace-event JSON: a process per path and device, a thread per resource", "[cli]") {
  const std::string sc = write_temp("tiny3.json", kScenario);
  const std::string trace = "/tmp/iowall_cli_trace_" + std::to_string(getpid()) + ".json";
  const Result r = cli("run " + sc + " --trace " + trace + " --output-format json");
  REQUIRE(r.code == 0);
  const std::string t = slurp(trace);
  CHECK(t.find("\"traceEvents\"") != std::string::npos);
  CHECK(t.find("\"thread_name\"") != std::string::npos);
  CHECK(t.find("\"process_name\"") != std::string::npos);
  CHECK(t.find("\"name\":\"gpu_direct: nvme0\"") != std::string::npos);
  CHECK(t.find("\"name\":\"cpu_gpu: nvme0\"") != std::string::npos);
  CHECK(t.find("\"name\":\"media_read\"") != std::string::npos);
  CHECK(t.find("\"name\":\"media read\"") != std::string::npos);  // a slice: what the resource carries
  std::remove(trace.c_str());
}

TEST_CASE("sweep results do not depend on the number of threads", "[cli][sweep]") {
  const std::string sc = write_temp("sweep.json", kScenario);
  const std::string axis = " --axis '/workload/io_size=\"128 KiB\",\"1 MiB\"' --axis /workload/threads=1,4";
  const Result one = cli("sweep " + sc + axis + " --jobs 1 --output-format json");
  const Result four = cli("sweep " + sc + axis + " --jobs 4 --output-format json");
  REQUIRE(one.code == 0);
  CHECK(one.out == four.out);
  CHECK(one.out.find("\"/workload/threads\": 4") != std::string::npos);
}

TEST_CASE("the PCIe calculator checks its input and agrees with itself", "[cli][pcie]") {
  const Result bad = cli("pcie bw --gen 5 --lanes 3");
  CHECK(bad.code == 2);
  CHECK(bad.err.find("x3 is not a PCIe link width") != std::string::npos);
  CHECK(cli("pcie bw --mps 384").code == 2);
  CHECK(cli("pcie bw --size '15 parsecs'").code == 2);
  const Result model = cli("pcie bw --gen 4 --lanes 8 --size 65536 --op read --output-format json");
  const Result sim = cli("pcie bw --gen 4 --lanes 8 --size 65536 --op read --method sim --output-format json");
  REQUIRE(model.code == 0);
  REQUIRE(sim.code == 0);
  CHECK(model.out.find("\"effective_GBps\"") != std::string::npos);
  const Result dma = cli("pcie dma topologies/workstation-gen5.json --from dram0 --to gpu9");
  CHECK(dma.code == 2);
  CHECK(dma.err.find("no device \"gpu9\"") != std::string::npos);
}

TEST_CASE("statistics come out as text and CSV too", "[cli][stats]") {
  const std::string sc = write_temp("stats.json", kScenario);
  const Result text = cli("run " + sc + " --stats");
  REQUIRE(text.code == 0);
  CHECK(text.out.find("statistics, gpu_direct") != std::string::npos);
  CHECK(text.out.find("nvme0/media_read/busy") != std::string::npos);
  const Result csv = cli("run " + sc + " --stats --output-format csv");
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find("path,stat,unit,value,mean,max,count,p50,p99") != std::string::npos);
  CHECK(csv.out.find("gpu_direct,nvme0/commands,commands,") != std::string::npos);
}

TEST_CASE("sweep shards merge into the serial result, and MPI ranks give it too", "[cli][sweep]") {
  const std::string sc = write_temp("shard.json", kScenario);
  const std::string axis = " --axis '/workload/io_size=\"128 KiB\",\"1 MiB\",\"4 MiB\"' --output-format json";
  const Result serial = cli("sweep " + sc + axis);
  REQUIRE(serial.code == 0);
  const std::string a = "/tmp/iowall_shard_a_" + std::to_string(getpid()) + ".json";
  const std::string b = "/tmp/iowall_shard_b_" + std::to_string(getpid()) + ".json";
  REQUIRE(cli("sweep " + sc + axis + " --shard 0/2 --output " + a).code == 0);
  REQUIRE(cli("sweep " + sc + axis + " --shard 1/2 --output " + b).code == 0);
  const Result merged = cli("sweep --merge " + b + " " + a + " --output-format json");
  REQUIRE(merged.code == 0);
  CHECK(merged.out == serial.out);
  CHECK(cli("sweep --merge " + a + " --output-format json").code == 2);  // a shard is missing
  CHECK(cli("sweep " + sc + axis + " --shard 2/2").code == 2);
  std::remove(a.c_str());
  std::remove(b.c_str());
#ifdef IOWALL_MPIRUN
  const Result mpi = iowall_via(std::string(IOWALL_MPIRUN) + " --allow-run-as-root --oversubscribe -np 2 ",
                                "sweep " + sc + axis);
  INFO(mpi.err);
  REQUIRE(mpi.code == 0);
  CHECK(mpi.out == serial.out);
#endif
}

TEST_CASE("sweeps show progress on a terminal only", "[cli][progress]") {
  const std::string sc = write_temp("progress.json", kScenario);
  const std::string axis = " --axis /workload/threads=1,2,4";
  const Result plain = cli("sweep " + sc + axis);
  REQUIRE(plain.code == 0);
  CHECK(plain.err.empty());  // not a terminal: nothing on stderr
  // Under a pseudo-terminal (script(1)), stderr is a terminal: the progress line appears.
  const std::string log = "/tmp/iowall_progress_" + std::to_string(getpid()) + ".txt";
  const std::string cmd = "script -qec \"" + std::string(IOWALL_BINARY) + " sweep " + sc +
                          " --axis /workload/threads=1,2,4 >/dev/null\" " + log + " >/dev/null 2>&1";
  if (std::system("command -v script >/dev/null 2>&1") != 0) return;  // util-linux missing: nothing to test
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string typescript = slurp(log);
  CHECK(typescript.find("sweep points: 3/3") != std::string::npos);
  std::remove(log.c_str());
  const std::string quiet_cmd = "script -qec \"" + std::string(IOWALL_BINARY) + " sweep " + sc +
                                " --axis /workload/threads=1,2 --quiet >/dev/null\" " + log + " >/dev/null 2>&1";
  REQUIRE(std::system(quiet_cmd.c_str()) == 0);
  CHECK(slurp(log).find("sweep points") == std::string::npos);
  std::remove(log.c_str());
}

TEST_CASE("more bad scenario input: impossible sizes, wrong targets, empty lists, bounds", "[cli][errors]") {
  struct Case {
    std::string set, expect;
  };
  for (const Case& c : std::vector<Case>{
           {"/workload/size=\"1 EB\"", "/workload/size: 1000000 TB does not fit on the 2 drive(s) of gpu0"},
           {"/workload/targets=\"cpu0\"", "/workload/targets: cpu0 is a cpu_socket, not a gpu"},
           {"/paths=[]", "/paths: has 0 items, expected at least 1"},
           {"/seed=-1", "/seed: -1 is below the minimum 0"},
           {"/topology=5", "/topology: 5 is not of the right type (expected string or object)"}}) {
    const Result r = cli("run --set '" + c.set + "'");
    INFO(c.set << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(c.expect) != std::string::npos);
    CHECK(lines(r.err) == 1);
  }
}
