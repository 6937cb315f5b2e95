// SIGINT during a measurement stops it and removes the file it created.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <future>
#include <thread>
#include <unistd.h>

#include "measure/runner.hpp"
#include "measure_test_util.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using namespace iowall::measure;

TEST_CASE("SIGINT stops a measurement and removes the file it created", "[measure][io]") {
  testing::ScratchDir dir;
  MeasureOptions o;
  o.file = dir.file("int.dat");
  o.size = Bytes(8 << 20);
  o.io_size = Bytes(64 << 10);
  o.xfer = TransferType::cpu_cached;
  o.runtime = sec(30);  // far longer than the test waits
  o.quiet = true;
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  auto run = std::async(std::launch::async, [&] { return run_measurement(o); });
  // The file appears only after the SIGINT handler is installed, so the signal cannot
  // reach the default handler (which would end the test program).
  for (int i = 0; i < 3000 && !std::filesystem::exists(o.file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(std::filesystem::exists(o.file));
  ::kill(::getpid(), SIGINT);
  REQUIRE(run.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
  CHECK_THROWS_WITH(run.get(), Catch::Contains("interrupted") && Catch::Contains("removed"));
  CHECK(dir.entries().empty());
  // The previous handler is back.
  struct sigaction after {};
  sigaction(SIGINT, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
}
