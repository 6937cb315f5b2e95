// The fit stages of `iowall calibrate` (measure/calibrate.hpp) that live in files of
// their own, and what they share: each fills its part of a profile from the points the
// subset selected.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "measure/calibrate.hpp"

namespace iowall::calib::stages {

// `v` rounded to `digits` significant digits (for the profile's qualities and errors).
double round_sig(double v, int digits);
// A line t = a + s / bandwidth fitted to per-I/O times (seconds) over I/O sizes (bytes), in
// relative errors; nullopt with fewer than two sizes.
std::optional<SizeLine> fit_size_line(const std::vector<std::pair<double, double>>& size_time);
// Seconds each thread spends per I/O at QD1: threads / IOPS.
inline double time_per_io(const PointGroup& g) { return g.threads / g.median_iops(); }

// Storage (measure/calibrate_storage.cpp): read latency, bandwidth and command rate of the
// drive, and which read service's ceiling fits, from the cpu_only points and the CPU cost
// per I/O already in `prof`; also the latency spread.
void fit_storage(const std::vector<const PointGroup*>& only, Profile& prof);

// The write fits in a profile's "fits" (measure/profile_writes_json.cpp): written only
// where fitted, and read back; InputError naming `path` and the pointer for bad values.
void add_write_fits(const WriteFits& w, nlohmann::json& fits);
void read_write_fits(const nlohmann::json& j, const std::string& path, Profile& p);

}  // namespace iowall::calib::stages
