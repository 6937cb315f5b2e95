// Determinism across threads and ranks: the same command with --jobs 1 and --jobs 2 (and,
// where MPI is installed, under mpirun -np 2) must succeed and print the same bytes
// (results are assembled in index order whatever ran where).
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

// The same, and under `mpirun -np 2` with --jobs 1 when the build found MPI (the ranks
// share the runs, rank 0 alone prints); returns the --jobs 1 run.
inline CliResult run_same_for_jobs_and_ranks(const std::string& args) {
  const CliResult one = run_same_for_jobs(args);
#ifdef IOWALL_MPIRUN
  const CliResult mpi =
      run_iowall(args + " --jobs 1", std::string(IOWALL_MPIRUN) + " --allow-run-as-root --oversubscribe -np 2 ");
  INFO(mpi.err);
  REQUIRE(mpi.code == 0);
  CHECK(mpi.out == one.out);
#endif
  return one;
}

}  // namespace iowall::testing
