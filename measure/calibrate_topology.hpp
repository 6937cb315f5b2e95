// Puts a profile's fitted parameters where the simulator reads them: into the devices of
// a topology (the SSD's reads, writes and flush, the CPU socket, the GPU's copy engines)
// and into the parameters of a data path (per-I/O CPU costs; for writes, the page cache's
// writeback), so that a topology can take its values from a profile.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "measure/calibrate.hpp"

namespace iowall::calib {

// The base topology with the profile's values on its first nvme_ssd (and the fitted read
// bandwidth on the link joining it, so that a lone request waits for its data), cpu_socket and gpu;
// its description cites `profile_file`. Throws InputError if the topology has no nvme_ssd.
nlohmann::json apply_profile(const nlohmann::json& base, const Profile& p, const std::string& base_file,
                             const std::string& profile_file);

// A scenario path entry {"name": path, ...costs} for `io_size` I/Os issued at queue depth `qd`.
nlohmann::json path_entry(const Profile& p, const std::string& path, int qd, double io_size);

// The same for a point of writes: for cpu_cached, also a buffered write's cost (the
// buffered-write fit), the flusher's rate, the writeback request and the kernel's
// vm.dirty_* settings the writeback fit recorded.
nlohmann::json write_path_entry(const Profile& p, const std::string& path, int qd, double io_size,
                                const std::string& engine = "");

// The id of the first device of `model` in a topology, or "" if there is none.
std::string first_device(const nlohmann::json& topology, const std::string& model);

}  // namespace iowall::calib
