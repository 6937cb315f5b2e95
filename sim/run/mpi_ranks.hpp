// Sweeps across MPI ranks: when the program runs under mpirun (and was built with
// MPI), each rank runs one shard and rank 0 gathers the results. Built without MPI,
// or started without mpirun, there is one rank.
#pragma once
#include <string>
#include <vector>

namespace iowall::mpi {

struct World {
  int rank = 0, size = 1;
};
// Initializes MPI when the launcher's environment says so; safe to call once.
World init_if_launched();
// Sends `text` from every rank to rank 0; rank 0 gets all texts in rank order.
std::vector<std::string> gather(const std::string& text, const World& world);
// Sends `text` from every rank to every rank; each gets all texts in rank order.
std::vector<std::string> all_gather(const std::string& text, const World& world);
void finalize(const World& world);

}  // namespace iowall::mpi
