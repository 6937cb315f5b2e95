// The requests the device sees are the ones asked for: an O_DIRECT read of -i bytes is one
// block request, neither split (a buffer of scattered 4 KiB pages exceeds a virtio disk's
// segment limit at 1 MiB: 1016 KiB + 8 KiB) nor merged with its neighbours (sequential
// reads handed to the kernel together became one 4 MiB request at QD1 instead of four
// 1 MiB ones at QD4). Both were seen with block-layer tracepoints against fio
// (reports/calibration/cpu-machine/fio-crosscheck.md).
#include <catch2/catch.hpp>

#include <cstdint>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <unistd.h>

#include "measure/aligned_buffer.hpp"
#include "measure/report.hpp"
#include "measure/runner.hpp"
#include "measure_test_util.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {

bool thp_offered() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string s;
  std::getline(f, s);
  return s.find("[always]") != std::string::npos || s.find("[madvise]") != std::string::npos;
}

}  // namespace

TEST_CASE("I/O buffers from 64 KiB are 2 MiB-aligned and physically contiguous where huge pages are offered",
          "[measure]") {
  const AlignedBuffer small(4096);
  CHECK(reinterpret_cast<std::uintptr_t>(small.data()) % 4096 == 0);
  const std::size_t n = std::size_t{4} << 20;  // four 1 MiB slots, as -i 1M --qd 4
  const AlignedBuffer b(n);
  REQUIRE(b.size() == n);
  CHECK(reinterpret_cast<std::uintptr_t>(b.data()) % kHugePage == 0);
  if (!thp_offered()) {
    WARN("transparent huge pages are off: I/O buffers have 4 KiB pages");
    return;
  }
  // The advice is ours and shows as the mapping's eligibility; whether the kernel finds
  // free 2 MiB pages when the buffer is touched depends on the machine's memory (under
  // load it gave one of two), so a shortfall is reported, not failed.
  const long long eligible = smaps_field(b.data(), "THPeligible:");
  if (eligible >= 0) CHECK(eligible == 1);
  const std::size_t huge = huge_page_bytes(b.data());
  if (huge < n) {
    WARN("the kernel backed " << huge << " of " << n << " bytes with huge pages (no free 2 MiB pages)");
    return;
  }
  const long long runs = physical_runs(b.data(), std::size_t{1} << 20);
  if (runs < 0) {
    WARN("page frame numbers are not readable here: physical contiguity not checked");
    return;
  }
  INFO("physically contiguous runs in the first 1 MiB slot: " << runs);
  CHECK(runs == 1);  // with 4 KiB pages it was 190-256
}

TEST_CASE("buffers of small pages (--buffer-pages small) are 4 KiB pages the kernel may not merge into huge ones", "[measure]") {
  // A framework's or a loader's buffer: malloc'd, 4 KiB pages. MADV_NOHUGEPAGE keeps
  // khugepaged from collapsing it, so THPeligible reads 0 and no byte is a huge page.
  const std::size_t n = std::size_t{4} << 20;
  const AlignedBuffer b(n, 4096, BufferPages::small);
  REQUIRE(b.size() == n);
  CHECK(reinterpret_cast<std::uintptr_t>(b.data()) % 4096 == 0);
  CHECK(huge_page_bytes(b.data()) == 0);
  const long long eligible = smaps_field(b.data(), "THPeligible:");
  if (eligible >= 0) CHECK(eligible == 0);
}

TEST_CASE("measure with small buffer pages reads through a 4 KiB-page buffer and says so in the JSON", "[measure][io]") {
  testing::ScratchDir dir;
  if (!dir.direct_io()) {
    WARN("no scratch directory accepts O_DIRECT here: skipped");
    return;
  }
  MeasureOptions o;
  o.file = dir.file("pages.bin");
  o.size = Bytes(8 << 20);
  o.io_size = Bytes(1 << 20);
  o.xfer = TransferType::cpu_only;
  o.mode = parse_io_mode("read", o.mode_text);
  o.quiet = true;
  o.buffer_pages = BufferPages::small;
  const RunInfo info = run_measurement(o);
  REQUIRE(info.repeats.at(0).threads.at(0).read.ops == 8);
  const auto j = to_json(info);
  const auto& buffer = j["jobs"].at(0)["host_buffer"];
  CHECK(buffer["pages"].get<std::string>() == "small");
  CHECK(buffer["huge_page_bytes"].get<std::int64_t>() == 0);
  CHECK(buffer["bytes"].get<std::int64_t>() == 1 << 20);
  // Its DMA segments, where page frame numbers can be read: between one (the kernel found
  // 256 neighbouring pages) and 256 (none neighbours another).
  const auto& runs = buffer["contiguous_runs"];
  if (runs.is_null()) {
    WARN("page frame numbers are not readable here: the buffer's segments are not counted");
  } else {
    CHECK(runs.get<std::int64_t>() >= 1);
    CHECK(runs.get<std::int64_t>() <= 256);
  }
}

TEST_CASE("sequential O_DIRECT reads at QD4 reach the disk as one request per I/O", "[measure][io][disk]") {
  testing::ScratchDir dir;
  if (!dir.direct_io()) {
    WARN("no scratch directory accepts O_DIRECT here: skipped");
    return;
  }
  const std::string file = dir.file("shape.bin");
  MeasureOptions o;
  o.file = file;
  o.size = Bytes(64 << 20);
  o.io_size = Bytes(1 << 20);
  o.threads = 1;
  o.xfer = TransferType::cpu_only;
  o.engine = Engine::io_uring;
  o.qd = 4;
  o.mode = parse_io_mode("read", o.mode_text);
  o.quiet = true;
  const RunInfo info = run_measurement(o);
  const std::optional<DiskUsage>& disk = info.repeats.at(0).disk;
  if (!disk) {
    WARN("the scratch file system has no block device statistics: skipped");
    return;
  }
  const std::uint64_t ios = info.repeats.at(0).threads.at(0).read.ops;
  REQUIRE(ios == 64);
  const std::uint64_t reads = disk->delta.read_ios, bytes = disk->delta.read_sectors * 512;
  INFO("block requests " << reads << " (" << disk->delta.read_merges << " merged) for " << ios << " reads of 1 MiB, "
                         << bytes << " bytes, on " << disk->name);
  // Every read reached the device as a request of its own or merged into another.
  REQUIRE(reads + disk->delta.read_merges >= ios);
  REQUIRE(bytes >= ios << 20);
  // The JSON carries the same counters, fio's disk_util at the top.
  const auto j = to_json(info);
  CHECK(j["disk_util"].at(0)["read_ios"].get<std::uint64_t>() == reads);
  CHECK(j["iowall"]["repeats"].at(0)["disk"]["name"].get<std::string>() == disk->name);
  // Submitted one at a time, requests are not plugged together, so without an I/O
  // scheduler nothing merges them. A scheduler (mq-deadline, bfq, kyber) also merges
  // adjacent requests that wait in it while the device is busy: that depends on the
  // device and on other users of it, and fio's jobs see the same, so there it is
  // reported.
  const bool merged = static_cast<double>(bytes) / static_cast<double>(reads) > 1.25 * (1 << 20);
  if (!merged || disk->scheduler == "none")
    CHECK_FALSE(merged);
  else
    WARN("the '" << disk->scheduler << "' scheduler merged waiting requests: " << reads << " block requests for "
                 << ios << " reads of 1 MiB");
  const bool huge = info.repeats.at(0).threads.at(0).host_buffer_huge_bytes ==
                    info.repeats.at(0).threads.at(0).host_buffer_bytes;
  // A queue whose largest request is under 1 MiB splits every read whatever the buffer.
  const std::uint64_t largest_kib = disk->max_request_kib;
  if (huge && largest_kib >= 1024)
    CHECK(reads <= ios + ios / 2);  // not split (1016 KiB + 8 KiB doubles the count)
}
