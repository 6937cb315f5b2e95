#include "sim/core/histogram.hpp"

#include <bit>
#include <cmath>

namespace iowall {
namespace {
constexpr std::size_t kGroups = 64 - LogLinearHistogram::kBits + 1;
}

LogLinearHistogram::LogLinearHistogram() : buckets_(kGroups * kPerGroup, 0) {}

std::size_t LogLinearHistogram::index_of(std::uint64_t v) {
  if (v < 2 * kPerGroup) return static_cast<std::size_t>(v);
  const int msb = 63 - std::countl_zero(v);
  const int error_bits = msb - kBits;
  const std::size_t base = static_cast<std::size_t>(error_bits + 1) << kBits;
  const std::size_t offset = static_cast<std::size_t>((v >> error_bits) & (kPerGroup - 1));
  return base + offset;
}

std::uint64_t LogLinearHistogram::bucket_low(std::size_t idx) {
  if (idx < 2 * kPerGroup) return idx;
  const int error_bits = static_cast<int>(idx >> kBits) - 1;
  const std::uint64_t base = std::uint64_t(1) << (error_bits + kBits);
  const std::uint64_t k = idx % kPerGroup;
  return base + (k << error_bits);
}

std::uint64_t LogLinearHistogram::bucket_value(std::size_t idx) {
  if (idx < 2 * kPerGroup) return idx;
  const int error_bits = static_cast<int>(idx >> kBits) - 1;
  return bucket_low(idx) + ((std::uint64_t(1) << error_bits) >> 1);
}

void LogLinearHistogram::add(std::uint64_t v, std::uint64_t n) {
  buckets_[index_of(v)] += n;
  count_ += n;
  min_ = v < min_ ? v : min_;
  max_ = v > max_ ? v : max_;
  const double d = static_cast<double>(v);
  sum_ += d * static_cast<double>(n);
  sum_sq_ += d * d * static_cast<double>(n);
}

void LogLinearHistogram::merge(const LogLinearHistogram& o) {
  for (std::size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  if (o.count_) {
    min_ = o.min_ < min_ ? o.min_ : min_;
    max_ = o.max_ > max_ ? o.max_ : max_;
  }
  sum_ += o.sum_;
  sum_sq_ += o.sum_sq_;
}

void LogLinearHistogram::clear() { *this = LogLinearHistogram(); }

double LogLinearHistogram::stddev() const {
  if (count_ < 2) return 0.0;
  const double m = mean();
  const double var = sum_sq_ / static_cast<double>(count_) - m * m;
  return var > 0 ? std::sqrt(var) : 0.0;
}

std::uint64_t LogLinearHistogram::percentile(double p) const {
  if (count_ == 0) return 0;
  // The rank of the sample, 1-based: the first bucket whose cumulative count reaches it.
  double want = std::ceil(p / 100.0 * static_cast<double>(count_));
  if (want < 1) want = 1;
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (static_cast<double>(seen) >= want) {
      const std::uint64_t v = bucket_value(i);
      return v > max_ ? max_ : (v < min_ ? min_ : v);
    }
  }
  return max_;
}

const std::vector<double>& LogLinearHistogram::default_percentiles() {
  static const std::vector<double> list{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  return list;
}

}  // namespace iowall
