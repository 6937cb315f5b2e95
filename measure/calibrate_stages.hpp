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
// relative errors, with a >= 0 (a line through the origin where the free fit's a is
// negative); nullopt with fewer than two sizes.
std::optional<SizeLine> fit_size_line(const std::vector<std::pair<double, double>>& size_time);
// Seconds each thread spends per I/O at QD1: threads / IOPS.
inline double time_per_io(const PointGroup& g) { return g.threads / g.median_iops(); }

// Storage (measure/calibrate_storage.cpp): read latency, bandwidth and command rate of the
// drive, and which read service's ceiling fits, from the cpu_only points and the CPU cost
// per I/O already in `prof`; also the latency spread.
// `direct_write_Bps`: the fastest O_DIRECT write rate measured in the same subset (0: none);
// a read service whose link would carry less is not kept (the writes cross that link too).
void fit_storage(const std::vector<const PointGroup*>& only, Profile& prof, double direct_write_Bps = 0);

// Each point's measured and fitted bandwidth (`r`: the log residual of each) appended to
// `out`, and the fit's quality on log bandwidth with `parameters` fitted
// (measure/calibrate_storage.cpp).
fit::Quality bandwidth_residuals(const std::vector<const PointGroup*>& pts, const Eigen::VectorXd& r, int parameters,
                                 nlohmann::json& out);

// Reads a profile's values at JSON pointers: InputError naming `path` and the pointer when
// one is missing or not in its unit (measure/profile_json.cpp).
struct ProfileReader {
  const nlohmann::json& j;
  const std::string& path;
  const nlohmann::json& at(const std::string& ptr) const;
  bool null(const std::string& ptr) const { return at(ptr).is_null(); }
  std::string text(const std::string& ptr) const;  // a string
  double seconds(const std::string& ptr) const;
  double bytes_per_s(const std::string& ptr) const;
  i64 bytes(const std::string& ptr) const;
  // A SizeLine at `ptr` (nullopt where absent): its `fixed` time and its `bw` (null: not identified).
  std::optional<SizeLine> line(const std::string& ptr, const char* fixed, const char* bw) const;
};

// The write fits in a profile's "fits" (measure/profile_writes_json.cpp): written only
// where fitted, and read back; InputError naming `path` and the pointer for bad values.
void add_write_fits(const WriteFits& w, nlohmann::json& fits);
void read_write_fits(const nlohmann::json& j, const std::string& path, Profile& p);

}  // namespace iowall::calib::stages
