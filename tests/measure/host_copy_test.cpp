// --copy: the CPU pass everywhere (its CRC-32 against a bit-by-bit reference, the page
// faults of fresh memory with and without huge pages), and the GPU copies where a GPU is
// (elsewhere they must stop with one line naming --copy).
#include <catch2/catch.hpp>

#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "measure/crc32.hpp"
#include "measure/host_copy.hpp"
#include "measure/host_memory.hpp"
#include "measure/measurement_json.hpp"
#include "measure_test_util.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {

// CRC-32 one bit at a time, straight from the definition (reflected 0x04C11DB7).
std::uint32_t crc32_bitwise(const unsigned char* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int b = 0; b < 8; ++b) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

MeasureOptions copy_options(CopyKind kind, HostMemory memory, std::int64_t size, std::int64_t chunk) {
  MeasureOptions o;
  o.copy.kind = kind;
  o.copy.memory = memory;
  o.size = Bytes(size);
  o.io_size = Bytes(chunk);
  o.quiet = true;
  return o;
}

}  // namespace

TEST_CASE("CRC-32 is zip's: the check value, empty input, and any split of the bytes", "[measure]") {
  const std::string check = "123456789";
  CHECK(crc32_update(0, check.data(), check.size()) == 0xCBF43926u);
  CHECK(crc32_update(0, nullptr, 0) == 0u);
  std::vector<unsigned char> bytes(100'003);
  std::uint32_t x = 12345;
  for (auto& b : bytes) b = static_cast<unsigned char>((x = x * 1103515245u + 12345u) >> 24);
  const std::uint32_t whole = crc32_update(0, bytes.data(), bytes.size());
  CHECK(whole == crc32_bitwise(bytes.data(), bytes.size()));
  for (std::size_t split : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{4099}}) {
    const std::uint32_t a = crc32_update(0, bytes.data(), split);
    CHECK(crc32_update(a, bytes.data() + split, bytes.size() - split) == whole);
  }
}

TEST_CASE("a CPU pass covers every chunk and reports it in fio's shape", "[measure][copy]") {
  MeasureOptions o = copy_options(CopyKind::cpu_pass, HostMemory::pageable, 8 << 20, 1 << 20);
  o.repeat = 2;
  SECTION("memcpy into reused memory") {
    const CopyRunInfo info = run_copy_measurement(o);
    REQUIRE(info.repeats.size() == 2);
    for (const auto& r : info.repeats) {
      CHECK(r.chunks == 8);
      CHECK(r.bytes == 8u << 20);
      CHECK(r.lat_ns.count() == 8);
      CHECK(r.seconds > 0);
    }
    const auto j = copy_to_json(info);
    CHECK(j["jobs"].size() == 2);
    CHECK(j["jobs"][1]["groupid"] == 1);
    CHECK(j["jobs"][0]["jobname"] == "copy.cpu_pass.memcpy.pageable");
    CHECK(j["jobs"][0]["copy"]["total_ios"] == 8);
    CHECK(j["jobs"][0]["copy"]["io_bytes"] == 8u << 20);
    CHECK(j["jobs"][0]["copy"]["lat_ns"]["N"] == 8);
    CHECK(j["jobs"][0]["host_buffer"]["memory"] == "pageable");
    CHECK(j["iowall"]["mode"] == "copy");
    CHECK(j["iowall"]["pass"] == "memcpy");
    CHECK(j["iowall"]["gpu"].is_null());
  }
  SECTION("crc32 over the bytes, whose checksum is recorded") {
    o.copy.pass = CpuPass::crc32;
    const CopyRunInfo info = run_copy_measurement(o);
    // The pass reads a buffer filled with 0x5a before timing.
    const std::vector<unsigned char> same(8 << 20, 0x5a);
    const auto j = copy_to_json(info);
    CHECK(info.repeats[0].crc32 == crc32_bitwise(same.data(), same.size()));
    CHECK(j["iowall"]["repeats"][1]["crc32"] == fmt::format("{:08x}", info.repeats[0].crc32));
  }
}

TEST_CASE("fresh pageable memory faults every page inside the copy, huge pages fault once per 2 MiB",
          "[measure][copy]") {
  constexpr std::int64_t kSize = 64 << 20;
  MeasureOptions o = copy_options(CopyKind::cpu_pass, HostMemory::pageable_fresh, kSize, 1 << 20);
  o.copy.thp = ThpAdvice::nohuge;
  const CopyRunInfo small = run_copy_measurement(o);
  const CopyRepeat& s = small.repeats.at(0);
  CHECK(s.huge_page_bytes == 0);
  // One fault per 4 KiB page written (the kernel may fault around a little more; other
  // threads of this process could add a few).
  CHECK(s.minor_faults >= kSize / 4096 * 9 / 10);
  CHECK(copy_to_json(small)["iowall"]["thp_advice"] == "MADV_NOHUGEPAGE");

  const std::string mode = thp_enabled_mode();
  if (mode != "always" && mode != "madvise") {
    WARN("transparent huge pages are \"" << mode << "\" here: MADV_HUGEPAGE not checked");
    return;
  }
  o.copy.thp = ThpAdvice::huge;
  const CopyRunInfo huge = run_copy_measurement(o);
  const CopyRepeat& h = huge.repeats.at(0);
  CHECK(huge.advice_applied);
  if (h.huge_page_bytes < kSize) {
    WARN("the kernel found huge pages for " << h.huge_page_bytes << " of " << kSize << " bytes (fragmented memory?)");
    return;
  }
  // 32 faults of 2 MiB instead of 16,384 of 4 KiB. Under AddressSanitizer each run also
  // faults in the buffer's shadow (one byte per 8, in 4 KiB pages: 2,048 faults for 64 MiB)
  // in both runs alike; the comparison is of the buffer's own faults.
#ifdef IOWALL_SANITIZED
  const std::int64_t shadow = kSize / 8 / 4096;
#else
  const std::int64_t shadow = 0;
#endif
  CHECK(static_cast<std::int64_t>(h.minor_faults) - shadow < (static_cast<std::int64_t>(s.minor_faults) - shadow) / 16);
}

TEST_CASE("GPU copies run where a GPU is, and elsewhere stop with one line naming --copy", "[measure][copy][gpu]") {
  for (const auto kind : {CopyKind::d2h, CopyKind::h2d}) {
    for (const auto memory : {HostMemory::pinned, HostMemory::pageable, HostMemory::pageable_fresh}) {
      INFO(name(kind) << " " << name(memory));
      const MeasureOptions o = copy_options(kind, memory, 16 << 20, 1 << 20);
      try {
        const CopyRunInfo info = run_copy_measurement(o);
        CHECK(info.repeats.at(0).chunks == 16);
        CHECK(info.repeats.at(0).bytes == 16u << 20);
        CHECK_FALSE(info.cuda_library.empty());
      } catch (const InputError& e) {
        CHECK(e.pointer() == "--copy");
        CHECK_THAT(e.message(), Catch::Contains("needs a CUDA GPU"));
        CHECK(std::string(e.what()).find('\n') == std::string::npos);
      }
    }
  }
}

TEST_CASE("measure --copy writes its JSON where --output says", "[measure][copy]") {
  testing::ScratchDir dir;
  const std::string out = dir.file("copy.json");
  testing::run_cli({"--copy", "cpu_pass", "--pass", "crc32", "-s", "4M", "-i", "256K", "--output-format", "json",
                    "--output", out, "--quiet"});
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["jobs"][0]["copy"]["total_ios"] == 16);
  CHECK(j["iowall"]["pass"] == "crc32");
  CHECK(dir.entries() == std::vector<std::string>{"copy.json"});
  // Calibration reads I/O measurements: a copy file is refused with one line saying so.
  CHECK_THROWS_WITH(read_measurement_file(out), Catch::Contains("/iowall/mode") && Catch::Contains("--copy measurement"));
}
