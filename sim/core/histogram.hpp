// A log-linear latency histogram in fio's manner: values below 2^(kBits+1) are
// exact, above that each power of two is split into 2^kBits equal buckets, so the
// relative error of a reported percentile is below 1/2^kBits (1.6%). Simulated and
// measured percentiles are computed the same way and mean the same thing.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace iowall {

class LogLinearHistogram {
public:
  static constexpr int kBits = 6;
  static constexpr std::uint64_t kPerGroup = std::uint64_t(1) << kBits;

  LogLinearHistogram();
  void add(std::uint64_t value, std::uint64_t count = 1);
  void merge(const LogLinearHistogram& other);
  void clear();

  std::uint64_t count() const { return count_; }
  std::uint64_t min() const { return count_ ? min_ : 0; }
  std::uint64_t max() const { return max_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
  double stddev() const;
  // The value at percentile p in [0, 100]: the representative value of the bucket
  // where the cumulative count first reaches p% of all samples.
  std::uint64_t percentile(double p) const;
  // fio's default percentile list.
  static const std::vector<double>& default_percentiles();

  static std::size_t index_of(std::uint64_t value);
  static std::uint64_t bucket_low(std::size_t index);
  static std::uint64_t bucket_value(std::size_t index);  // midpoint, as fio reports

  const std::vector<std::uint64_t>& buckets() const { return buckets_; }

private:
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
  double sum_ = 0.0;
  double sum_sq_ = 0.0;
};

}  // namespace iowall
