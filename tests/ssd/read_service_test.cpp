// nvme_ssd "read_service": "serial": an emulated device that moves each read's data before
// it takes the next command, against a physical SSD ("overlapped") whose command processing
// overlaps earlier transfers; "batched" serves serial reads a pass at a time. Alone a read takes the same time either way; with reads queued the serial
// device gives size / (1/max_iops + size/read_bandwidth) and the other the bandwidth.
#include <catch2/catch.hpp>

#include "models/ssd/read_service.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/registry.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json scenario(const Json& drive_keys, int qd, int threads) {
  Json topology = load_json("topologies/gpu-machine.json", IOWALL_SOURCE_DIR).json;
  for (Json& d : topology["devices"])
    if (d["model"] == "nvme_ssd")
      d.update(drive_keys);
  // As a calibrated topology has it: the drive's link at the drive's bandwidth, so that
  // a lone read waits for its data (the data path streams into the DMA, cut-through).
  for (Json& l : topology["links"])
    if (l["b"] == "disk0.up") l = {{"a", l["a"]}, {"b", "disk0.up"}, {"fabric", {{"bandwidth", "2 GB/s"}, {"latency", "20 ns"}}}};
  const Json doc = {{"name", "serial-reads"},
                    {"topology", topology},
                    {"workload", {{"kind", "sequential_read"}, {"size", "64 MiB"}, {"io_size", "128 KiB"},
                                  {"threads", threads}, {"qd", qd}, {"targets", "dram0"}, {"storage", "disk0"}}},
                    {"paths", {"cpu_only"}}};
  return doc;
}

double throughput(const char* service, int qd, int threads = 1) {
  const Json keys = {{"read_latency", "20 us"}, {"read_bandwidth", "2 GB/s"}, {"max_iops", "100 K/s"},
                     {"latency_sigma", 0.0}, {"read_service", service}};
  const Json r = to_json(run_scenario(scenario_from_json(scenario(keys, qd, threads), "serial-reads", IOWALL_SOURCE_DIR)));
  return r["metrics"]["cpu_only"]["throughput_GBps"].get<double>();
}
}  // namespace

TEST_CASE("serial reads: the same lone read, a lower ceiling when reads queue", "[nvme][ssd]") {
  // Alone: 1/max_iops + latency + size/bandwidth either way, plus the host's costs.
  CHECK(throughput("serial", 1) == Approx(throughput("overlapped", 1)).epsilon(0.01));
  // Queued: 131072 B / (10 us + 65.5 us) = 1.736 GB/s in series; 2 GB/s side by side.
  CHECK(throughput("serial", 8) == Approx(131072 / (10e-6 + 131072 / 2e9) / 1e9).epsilon(0.03));
  CHECK(throughput("overlapped", 8) == Approx(2.0).epsilon(0.03));
}

TEST_CASE("batched reads: one wake-up per batch of the reads in flight, completed together", "[nvme][ssd]") {
  // Alone, the wake-up (read_latency) comes where the media latency came: the same read.
  CHECK(throughput("batched", 1) == Approx(throughput("serial", 1)).epsilon(0.01));
  // Two in flight: one wake-up serves both, so two reads cost less than twice one, and
  // two threads at QD1 run as one thread at QD2 (as measured, reports/calibration/two-threads.md).
  const double one = throughput("batched", 1), two = throughput("batched", 2), pair = throughput("batched", 1, 2);
  CHECK(two > 1.05 * one);
  CHECK(two < 2.0 * one);
  CHECK(pair == Approx(two).epsilon(0.05));
  // Queued deep, every batch pays a wake-up: below the serial drive's ceiling.
  CHECK(throughput("batched", 8) < 0.97 * throughput("serial", 8));
}

TEST_CASE("read services: a named choice, each listed with the drive parameters it uses", "[nvme][ssd]") {
  // The default is overlapped: the same run as naming it.
  const Json plain = {{"read_latency", "20 us"}, {"latency_sigma", 0.0}};
  Json named = plain;
  named["read_service"] = "overlapped";
  CHECK(run_scenario(scenario_from_json(scenario(plain, 8, 1), "a", IOWALL_SOURCE_DIR)) ==
        run_scenario(scenario_from_json(scenario(named, 8, 1), "a", IOWALL_SOURCE_DIR)));
  // An unknown name, and the boolean flags it replaced, are input errors at their key.
  const auto error_at = [](const Json& keys) {
    try {
      run_scenario(scenario_from_json(scenario(keys, 1, 1), "a", IOWALL_SOURCE_DIR));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error_at({{"read_service", "sideways"}}).find("/read_service") != std::string::npos);
  CHECK(error_at({{"batched_reads", true}}).find("batched_reads") != std::string::npos);
  CHECK(error_at({{"serial_reads", true}}).find("serial_reads") != std::string::npos);
  // `iowall models` lists each service in its domain, with the drive parameters it uses.
  const auto params_of = [](const char* name) {
    std::vector<std::string> out;
    const ModelEntry* e = ModelRegistry::instance().find("read_service", name);
    if (e)
      for (const ParamInfo& p : e->describe().params) out.push_back(p.name);
    return out;
  };
  CHECK(params_of("overlapped") == std::vector<std::string>{"max_iops"});
  CHECK(params_of("serial") == std::vector<std::string>{"max_iops", "read_bandwidth"});
  CHECK(params_of("batched") == std::vector<std::string>{"read_latency", "latency_sigma", "max_iops", "read_bandwidth"});
}

TEST_CASE("each read service runs at the closed form it documents (what calibration fits)", "[nvme][ssd][calibrate]") {
  // The drive of throughput() and the host's psync costs (2 us to submit, 2 to complete).
  const ReadCeilingInputs d{100e3, 2e9, 20e-6, 131072, 4e-6};
  for (const char* service : {"overlapped", "serial", "batched"})
    for (int qd : {1, 2, 8}) {
      INFO(service << " at QD" << qd);
      const double closed = read_ceiling(service).ceiling(d, 131072, qd) / 1e9;
      CHECK(throughput(service, qd) == Approx(closed).epsilon(0.05));
    }
}
