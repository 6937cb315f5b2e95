// scripts/drift-trace.py reads a drifttrace phase back (scripts/calibrate-gpu-machine.sh: the sweep's O_DIRECT
// points and a cold buffered stream in turn, each turn's start in times.txt) and splits the turns into slow
// ones (the 1 MiB QD1 point below 0.9 x its median) and the rest. Here a trace is made with known rates, so
// every figure the report states follows by hand:
//   20 turns, one every 4 s; turns 11-13 slow: 1M QD1 3.0 -> 2.4 GB/s, 128K QD1 2.0 -> 1.7, stream 2.0 -> 1.5.
//   median of 1M QD1 = 3.0, cut 2.7: 3 slow turns of 20 (15%), one run from turn 11 to 13, 2 x 4 s apart plus
//   one turn = 12 s, the first 40 s after turn 1; slow/other 2.4/3.0 = 0.800, 1.7/2.0 = 0.850, 1.5/2.0 = 0.750;
//   a median of 3 independent rounds slow with probability 3 x 0.15^2 x 0.85 + 0.15^3 = 0.0608 -> "0.06";
//   stream / 1M QD1 is 2/3 on 17 turns and 0.625 on 3: median 0.667.
// The folder and its archive read the same; a folder without times.txt, or with a record that is not one,
// is refused in one line with exit code 2.
// scripts/sweep-drift.py (a session's disk sweep against its drift phase, the same O_DIRECT points measured
// again after the checkpoints): 1M QD1 rounds 2.0, 2.2, 2.1 GB/s then 2.4, 2.5, 2.3 (medians 2.1 and 2.4: 1.143);
// 128K QD1 1.0 then 0.9 (0.900); the median of the two ratios 1.021, from the folder or the drift archive alike.
// scripts/checkpoint-repeat.py (a session's checkpoints beside the same checkpoints run again on the same VM,
// SESSION/repeat/): torch_save 2 GB d2h 0.20 -> 0.19 s (0.950), save_durable 2.0 -> 1.8 (0.900), load_cold_total
// 1.6 -> 1.2 (0.750): median 0.900 over 3 phases, 0.750-0.950; the save and the load move 10% and 25% (median
// 17.5%, largest 25.0%); a phase of the first run alone (fsync) is left out. Drift: sweep 1M QD1 2.0 GB/s, after
// the first run 2.4 (1.200), after the repeat 2.6 (1.300), the repeat's archives unpacked as the run packed them.
// Skipped when python3 is absent.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/measure/measure_test_util.hpp"
#include "tests/support/run_iowall.hpp"

namespace fs = std::filesystem;

namespace {

bool python_missing() {
  if (std::system("command -v python3 >/dev/null 2>&1") == 0) return false;
  WARN("python3 is not installed: skipping the drift-trace check");
  return true;
}

// One `iowall measure` record as the script reads it: bytes read over a 1000 ms run, `gbs` GB/s.
void record(const fs::path& dir, const std::string& name, double gbs) {
  std::ofstream(dir / name) << R"({"jobs": [{"read": {"io_bytes": )" << static_cast<long long>(gbs * 1e9)
                            << R"(, "runtime": 1000}}]})";
}

// One sweep record of `iowall measure` (calibrate-sweep.sh's cpu_only-POINT-rN.json): `gbs` GB/s.
void sweep_record(const fs::path& dir, const std::string& point, int round, double gbs) {
  fs::create_directories(dir);
  std::ofstream(dir / ("cpu_only-" + point + "-r" + std::to_string(round) + ".json"))
      << R"({"jobs": [{"read": {"bw_bytes": )" << static_cast<long long>(gbs * 1e9) << "}}]}";
}

void make_trace(const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream times(dir / "times.txt");
  for (int i = 1; i <= 20; ++i) {
    const bool slow = i >= 11 && i <= 13;
    times << i << " " << 1000 + 4 * (i - 1) << ".000000000\n";
    record(dir, "direct-1M-qd1-i" + std::to_string(i) + ".json", slow ? 2.4 : 3.0);
    record(dir, "direct-128K-qd1-i" + std::to_string(i) + ".json", slow ? 1.7 : 2.0);
    record(dir, "stream-i" + std::to_string(i) + ".json", slow ? 1.5 : 2.0);
  }
}

struct Run {
  int code;
  std::string out, err;
};

Run run_script(const fs::path& folder, const fs::path& tmp, const char* script = "drift-trace.py") {
  const std::string out = (tmp / "out.txt").string(), err = (tmp / "err.txt").string();
  const std::string cmd = "python3 " + (fs::path(IOWALL_SOURCE_DIR) / "scripts" / script).string() + " " +
                          folder.string() + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, iowall::testing::slurp(out), iowall::testing::slurp(err)};
}

}  // namespace

TEST_CASE("drift-trace finds the slow turns of a trace and how much each series loses in them", "[check][drift]") {
  if (python_missing()) return;
  iowall::measure::testing::ScratchDir scratch;
  const fs::path tmp = scratch.path(), dir = tmp / "drifttrace";
  make_trace(dir);
  const Run r = run_script(dir, tmp);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("20 turns over 1.3 min (one every 4.0 s)") != std::string::npos);
  CHECK(r.out.find("slow turns (direct-1M-qd1 below 0.9 x its median): 3 of 20 (15%), in 1 runs of 12-12 s "
                   "(median 12 s); the first at 40 s") != std::string::npos);
  CHECK(r.out.find("direct-1M-qd1          slow/other 0.800") != std::string::npos);
  CHECK(r.out.find("direct-128K-qd1        slow/other 0.850") != std::string::npos);
  CHECK(r.out.find("stream                 slow/other 0.750") != std::string::npos);
  CHECK(r.out.find("slow with probability 0.06") != std::string::npos);
  CHECK(r.out.find("stream / direct-1M-qd1: median 0.667") != std::string::npos);

  // The archive the run packs, beside a folder that is not there, reads the same.
  const std::string pack = "tar czf " + (tmp / "packed.tar.gz").string() + " -C " + tmp.string() + " drifttrace";
  REQUIRE(std::system(pack.c_str()) == 0);
  const Run a = run_script(tmp / "packed", tmp);
  CHECK(a.code == 0);
  CHECK(a.out == r.out);
}

TEST_CASE("drift-trace refuses a folder that holds no trace, in one line with exit code 2", "[check][drift]") {
  if (python_missing()) return;
  iowall::measure::testing::ScratchDir scratch;
  const fs::path tmp = scratch.path(), dir = tmp / "drifttrace";
  make_trace(dir);
  std::ofstream(dir / "stream-i7.json") << "{\"jobs\": [";
  Run r = run_script(dir, tmp);
  CHECK(r.code == 2);
  CHECK(r.err.find("stream-i7.json: not a measure record") != std::string::npos);
  CHECK(r.err.find('\n') == r.err.size() - 1);

  fs::remove(dir / "times.txt");
  r = run_script(dir, tmp);
  CHECK(r.code == 2);
  CHECK(r.err.find("no times.txt (not a drifttrace phase)") != std::string::npos);
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

TEST_CASE("sweep-drift sets a session's drift points beside its sweep's, from the folder or the archive",
          "[check][drift]") {
  if (python_missing()) return;
  iowall::measure::testing::ScratchDir scratch;
  const fs::path tmp = scratch.path(), session = tmp / "session";
  const double sweep_1m[] = {2.0, 2.2, 2.1}, drift_1m[] = {2.4, 2.5, 2.3};
  for (int r = 1; r <= 3; ++r) {
    sweep_record(session / "disk" / "sweep", "1M-qd1-t1", r, sweep_1m[r - 1]);
    sweep_record(session / "drift" / "sweep", "1M-qd1-t1", r, drift_1m[r - 1]);
    sweep_record(session / "disk" / "sweep", "128K-qd1-t1", r, 1.0);
    sweep_record(session / "drift" / "sweep", "128K-qd1-t1", r, 0.9);
  }
  const Run r = run_script(session, tmp, "sweep-drift.py");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("  1M-qd1-t1          2.100   2.400        1.143") != std::string::npos);
  CHECK(r.out.find("  128K-qd1-t1        1.000   0.900        0.900") != std::string::npos);
  CHECK(r.out.find("median after/sweep 1.021 over 2 points") != std::string::npos);

  const std::string pack = "tar czf " + (session / "drift.tar.gz").string() + " -C " + session.string() + " drift";
  REQUIRE(std::system(pack.c_str()) == 0);
  fs::remove_all(session / "drift");
  const Run a = run_script(session, tmp, "sweep-drift.py");
  CHECK(a.code == 0);
  CHECK(a.out == r.out);

  fs::remove(session / "drift.tar.gz");
  const Run none = run_script(session, tmp, "sweep-drift.py");
  CHECK(none.code == 2);
  CHECK(none.err.find("no drift phase beside a disk phase") != std::string::npos);
}

namespace {

// A frameworks phase's checkpoints.json with the summary rows {phase, median seconds} of torch_save at 2 GB.
void checkpoints(const fs::path& dir, const std::vector<std::pair<std::string, double>>& rows) {
  fs::create_directories(dir);
  std::ofstream f(dir / "checkpoints.json");
  f << R"({"iowall": {"summary": [)";
  for (std::size_t i = 0; i < rows.size(); ++i)
    f << (i ? "," : "") << R"({"writer": "torch_save", "size_bytes": 2000000000, "phase": ")" << rows[i].first
      << R"(", "median_s": )" << rows[i].second << "}";
  f << "]}}";
}

}  // namespace

TEST_CASE("checkpoint-repeat sets a repeat of the checkpoints beside the first run, and the drift after each",
          "[check][drift]") {
  if (python_missing()) return;
  iowall::measure::testing::ScratchDir scratch;
  const fs::path tmp = scratch.path(), session = tmp / "session", repeat = session / "repeat";
  checkpoints(session / "frameworks", {{"d2h", 0.20}, {"fsync", 0.7}, {"save_durable", 2.0}, {"load_cold_total", 1.6}});
  checkpoints(repeat / "frameworks", {{"d2h", 0.19}, {"save_durable", 1.8}, {"load_cold_total", 1.2}});
  for (int r = 1; r <= 3; ++r) {
    sweep_record(session / "disk" / "sweep", "1M-qd1-t1", r, 2.0);
    sweep_record(session / "drift" / "sweep", "1M-qd1-t1", r, 2.4);
    sweep_record(repeat / "drift" / "sweep", "1M-qd1-t1", r, 2.6);
  }
  // The repeat as a later call brings it back: its phases packed, no folders.
  for (const char* phase : {"frameworks", "drift"}) {
    const std::string pack = "tar czf " + (repeat / (std::string(phase) + ".tar.gz")).string() + " -C " +
                             repeat.string() + " " + phase;
    REQUIRE(std::system(pack.c_str()) == 0);
    fs::remove_all(repeat / phase);
  }
  const Run r = run_script(session, tmp, "checkpoint-repeat.py");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("  torch_save       2.00  d2h                 0.2000   0.1900         0.950") != std::string::npos);
  CHECK(r.out.find("  torch_save       2.00  load_cold_total     1.6000   1.2000         0.750") != std::string::npos);
  CHECK(r.out.find("fsync") == std::string::npos);
  CHECK(r.out.find("repeat/first over 3 phases: median 0.900, 0.750-0.950") != std::string::npos);
  CHECK(r.out.find("saves until durable and cold loads (2): |repeat/first - 1| median 17.5%, largest 25.0%") !=
        std::string::npos);
  CHECK(r.out.find("after the first run  1.200 (1.200-1.200, 1 points)") != std::string::npos);
  CHECK(r.out.find("after the repeat     1.300 (1.300-1.300, 1 points)") != std::string::npos);

  // No repeat: one line, exit code 2.
  fs::remove_all(repeat);
  const Run none = run_script(session, tmp, "checkpoint-repeat.py");
  CHECK(none.code == 2);
  CHECK(none.err.find("repeat: missing") != std::string::npos);
  CHECK(none.err.find('\n') == none.err.size() - 1);
}
