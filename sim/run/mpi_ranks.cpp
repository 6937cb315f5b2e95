#include <cstdlib>
#include <string>
#include <vector>

#include "sim/run/mpi_ranks.hpp"

#ifdef IOWALL_HAVE_MPI
#include <mpi.h>
#endif

namespace iowall::mpi {

World init_if_launched() {
  World w;
#ifdef IOWALL_HAVE_MPI
  // OpenMPI's and PMI launchers set these; a plain run never pays for MPI_Init.
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE")) return w;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
#endif
  return w;
}

std::vector<std::string> gather(const std::string& text, const World& world) {
  if (world.size <= 1) return {text};
#ifdef IOWALL_HAVE_MPI
  int len = static_cast<int>(text.size());
  std::vector<int> lens(static_cast<std::size_t>(world.size));
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lens.size(), 0);
  int total = 0;
  for (std::size_t i = 0; i < lens.size(); ++i) offsets[i] = total, total += lens[i];
  std::string all(world.rank == 0 ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (world.rank == 0)
    for (std::size_t i = 0; i < lens.size(); ++i) out.push_back(all.substr(offsets[i], lens[i]));
  return out;
#else
  return {text};
#endif
}

std::vector<std::string> all_gather(const std::string& text, const World& world) {
  if (world.size <= 1) return {text};
#ifdef IOWALL_HAVE_MPI
  int len = static_cast<int>(text.size());
  std::vector<int> lens(static_cast<std::size_t>(world.size));
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> offsets(lens.size(), 0);
  int total = 0;
  for (std::size_t i = 0; i < lens.size(); ++i) offsets[i] = total, total += lens[i];
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lens.size(); ++i) out.push_back(all.substr(offsets[i], lens[i]));
  return out;
#else
  return {text};
#endif
}

void finalize(const World& world) {
#ifdef IOWALL_HAVE_MPI
  if (world.size > 1 || std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE")) {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) MPI_Finalize();
  }
#else
  (void)world;
#endif
}

}  // namespace iowall::mpi
