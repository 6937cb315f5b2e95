// Parsing of gdsio/fio-style options, and the bad-input errors (one InputError each).
#include <catch2/catch.hpp>

#include "measure/options.hpp"
#include "measure_test_util.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {
// The InputError's option and message, or a failure when nothing was thrown.
std::pair<std::string, std::string> input_error(const std::vector<std::string>& args) {
  try {
    testing::run_cli(args);
  } catch (const InputError& e) {
    return {e.pointer(), e.message()};
  }
  FAIL("no InputError for the arguments");
  return {};
}
}  // namespace

TEST_CASE("transfer types take gdsio's names and numbers", "[measure]") {
  CHECK(parse_transfer_type("0") == TransferType::gpu_direct);
  CHECK(parse_transfer_type("1") == TransferType::cpu_only);
  CHECK(parse_transfer_type("2") == TransferType::cpu_gpu);
  CHECK(parse_transfer_type("4") == TransferType::cpu_cached_gpu);
  CHECK(parse_transfer_type("6") == TransferType::gpu_batch);
  CHECK(parse_transfer_type("GPU_DIRECT") == TransferType::gpu_direct);
  CHECK(parse_transfer_type("cpu_cached") == TransferType::cpu_cached);
  CHECK(gdsio_name(TransferType::cpu_only) == "CPUONLY");
  CHECK_THROWS_AS(parse_transfer_type("9"), InputError);
  CHECK_THROWS_WITH(parse_transfer_type("3"), Catch::Contains("CPU_ASYNC_GPU") && Catch::Contains("not implemented"));
}

TEST_CASE("I/O modes take names and gdsio's numbers", "[measure]") {
  std::string c;
  CHECK(parse_io_mode("2", c).random);
  CHECK(c == "randread");
  const IoMode w = parse_io_mode("write", c);
  CHECK(w.read_pct == 0);
  CHECK_FALSE(w.reads());
  CHECK(parse_io_mode("randrw", c).read_pct == 50);
  CHECK_THROWS_AS(parse_io_mode("trim", c), InputError);
}

TEST_CASE("sizes take iowall units and gdsio suffixes", "[measure]") {
  CHECK(parse_size_arg("4 KiB", "-i").n == 4096);
  CHECK(parse_size_arg("1M", "-i").n == 1 << 20);
  CHECK(parse_size_arg("2g", "-s").n == 2LL << 30);
  CHECK(parse_size_arg("4096", "-i").n == 4096);
  CHECK(parse_size_arg("1 MB", "-i").n == 1'000'000);
  CHECK_THROWS_WITH(parse_size_arg("lots", "-s"), Catch::Contains("-s") && Catch::Contains("not a size"));
  CHECK(parse_duration_arg("10 s", "--runtime") == sec(10));
  CHECK(parse_duration_arg("250 ms", "--runtime") == ms(250));
  CHECK(parse_duration_arg("3", "--runtime") == sec(3));
  CHECK_THROWS_AS(parse_duration_arg("soon", "--runtime"), InputError);
}

TEST_CASE("bad input is one InputError naming the option", "[measure]") {
  testing::ScratchDir dir;
  const std::string f = dir.file("t.dat");
  SECTION("an I/O size that O_DIRECT cannot use") {
    auto [opt, msg] = input_error({"-f", f, "-s", "1 MiB", "-i", "3000 B"});
    CHECK(opt == "-i");
    CHECK(msg == "\"3000 B\" is not a multiple of 4 KiB, which O_DIRECT requires (-x cpu_only)");
  }
  SECTION("buffered I/O accepts any size") {
    CHECK_NOTHROW(testing::run_cli({"-f", f, "-s", "6000 B", "-i", "3000 B", "-x", "cpu_cached", "--quiet"}));
  }
  SECTION("a queue depth of 0") {
    CHECK(input_error({"-f", f, "-s", "1 MiB", "--engine", "io_uring", "--qd", "0"}).first == "--qd");
  }
  SECTION("--pageable on a type that does not stage through host memory") {
    auto [opt, msg] = input_error({"-f", f, "-s", "1 MiB", "--pageable"});
    CHECK(opt == "--pageable");
    CHECK(msg.find("not cpu_only") != std::string::npos);
  }
  SECTION("a queue depth that psync cannot have") {
    CHECK(input_error({"-f", f, "-s", "1 MiB", "--qd", "4"}).first == "--qd");
  }
  SECTION("a missing file to read with no size to create it") {
    auto [opt, msg] = input_error({"-f", f, "-I", "read"});
    CHECK(opt == "-s");
    CHECK_THAT(msg, Catch::Contains("does not exist"));
  }
  SECTION("an unknown transfer type") {
    CHECK(input_error({"-f", f, "-s", "1 MiB", "-x", "warp_drive"}).first == "-x");
  }
  SECTION("a size that is not whole I/Os") {
    CHECK(input_error({"-f", f, "-s", "12 KiB", "-i", "8 KiB"}).first == "-s");
  }
  SECTION("fewer I/Os than threads") {
    CHECK(input_error({"-f", f, "-s", "1 MiB", "-i", "1 MiB", "-w", "2"}).first == "-s");
  }
  SECTION("an unknown output format") {
    CHECK(input_error({"-f", f, "-s", "1 MiB", "--output-format", "xml"}).first == "--output-format");
  }
  SECTION("--rwmixread without a mixed mode") {
    CHECK(input_error({"-f", f, "-s", "1 MiB", "--rwmixread", "70"}).first == "--rwmixread");
  }
  SECTION("cuFile types with io_uring") {
    CHECK(input_error({"-f", f, "-s", "1 MiB", "-x", "gpu_direct", "--engine", "io_uring"}).first == "--engine");
  }
  // None of these created anything (the cpu_cached one removed its file).
  CHECK(dir.entries().empty());
}

TEST_CASE("durability and copy options: bad input is one InputError naming the option", "[measure]") {
  testing::ScratchDir dir;
  const std::string f = dir.file("t.dat");
  auto error_of = [](const std::vector<std::string>& args) { return input_error(args); };
  SECTION("--fsync 0") {
    auto [opt, msg] = error_of({"-f", f, "-s", "1M", "-I", "write", "--fsync", "0"});
    CHECK(opt == "--fsync");
    CHECK_THAT(msg, Catch::Contains("use 1 or more"));
  }
  SECTION("--fdatasync that is not a number") {
    CHECK(error_of({"-f", f, "-s", "1M", "-I", "write", "--fdatasync", "often"}).first == "--fdatasync");
  }
  SECTION("--fsync and --fdatasync together") {
    CHECK(error_of({"-f", f, "-s", "1M", "-I", "write", "--fsync", "2", "--fdatasync", "2"}).first == "--fdatasync");
  }
  SECTION("each durability option with reads only") {
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--end-fsync"}, {"--fsync", "4"}, {"--fdatasync", "4"}, {"--sync"}}) {
      std::vector<std::string> args{"-f", f, "-s", "1M", "-I", "randread"};
      args.insert(args.end(), extra.begin(), extra.end());
      auto [opt, msg] = error_of(args);
      CHECK(opt == extra.front());
      CHECK(msg == "makes writes durable, but -I randread only reads; use -I write, randwrite, rw or randrw");
    }
  }
  SECTION("--sync through cuFile") {
    for (const char* x : {"gpu_direct", "gpu_batch"}) {
      auto [opt, msg] = error_of({"-f", f, "-s", "1M", "-I", "write", "-x", x, "--sync"});
      CHECK(opt == "--sync");
      CHECK_THAT(msg, Catch::Contains("O_DSYNC") && Catch::Contains("--fsync 1"));
    }
  }
  SECTION("copy options without --copy") {
    CHECK(error_of({"-f", f, "-s", "1M", "--host-memory", "pinned"}).first == "--host-memory");
    CHECK(error_of({"-f", f, "-s", "1M", "--pass", "crc32"}).first == "--pass");
  }
  SECTION("I/O options with --copy") {
    CHECK(error_of({"--copy", "cpu_pass", "-s", "1M", "-f", f}).first == "-f");
    CHECK(error_of({"--copy", "cpu_pass", "-s", "1M", "--fsync", "1"}).first == "--fsync");
    CHECK(error_of({"--copy", "d2h", "-s", "1M", "-x", "cpu_only"}).first == "-x");
  }
  SECTION("copy combinations that mean nothing") {
    CHECK(error_of({"--copy", "warp"}).first == "--copy");
    CHECK(error_of({"--copy", "cpu_pass"}).first == "-s");
    CHECK(error_of({"--copy", "cpu_pass", "-s", "1M", "--host-memory", "pinned"}).first == "--host-memory");
    CHECK(error_of({"--copy", "cpu_pass", "-s", "1M", "--pass", "crc32", "--host-memory", "pageable_fresh"}).first ==
          "--host-memory");
    CHECK(error_of({"--copy", "d2h", "-s", "1M", "--pass", "crc32"}).first == "--pass");
    CHECK(error_of({"--copy", "d2h", "-s", "1M", "--host-memory", "pinned", "--thp", "huge"}).first == "--thp");
    CHECK(error_of({"--copy", "h2d", "-s", "1M", "-i", "3000 B"}).first == "-s");
    CHECK(error_of({"--copy", "h2d", "-s", "4M", "-w", "2"}).first == "-w");
    CHECK(error_of({"--copy", "h2d", "-s", "4M", "--host-memory", "shared"}).first == "--host-memory");
    CHECK(error_of({"--copy", "cpu_pass", "-s", "4M", "--thp", "sometimes"}).first == "--thp");
  }
  CHECK(dir.entries().empty());
}
