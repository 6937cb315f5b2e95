// Determinism across threads: the same command with --jobs 1 and --jobs 2 must succeed and
// print the same bytes (results are assembled in index order whatever ran where).
#pragma once
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

namespace iowall::testing {

// Runs `args` with --jobs 1 and with --jobs 2; returns the first run.
inline CliResult run_same_for_jobs(const std::string& args) {
  const CliResult one = run_iowall(args + " --jobs 1");
  INFO(one.err);
  REQUIRE(one.code == 0);
  const CliResult two = run_iowall(args + " --jobs 2");
  REQUIRE(two.code == 0);
  CHECK(one.out == two.out);
  return one;
}

}  // namespace iowall::testing
