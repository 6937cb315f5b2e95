#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/histogram.hpp"
#include "sim/core/rng.hpp"

using namespace iowall;

TEST_CASE("log-linear percentiles match a sorted-array reference within one bucket", "[stats]") {
  Rng rng(11, "hist");
  LogLinearHistogram h;
  std::vector<std::uint64_t> values;
  for (int i = 0; i < 100000; ++i) {
    // A lognormal spread around 80 us, as a flash read latency would have.
    const auto v = static_cast<std::uint64_t>(80'000.0 * rng.lognormal_factor(0.5));
    values.push_back(v);
    h.add(v);
  }
  std::sort(values.begin(), values.end());
  for (double p : LogLinearHistogram::default_percentiles()) {
    const std::size_t rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
    const double exact = static_cast<double>(values[std::max<std::size_t>(rank, 1) - 1]);
    // 64 buckets per power of two: the bucket midpoint is within 1/128 of any value in it.
    CHECK(std::abs(static_cast<double>(h.percentile(p)) - exact) <= exact / 64.0);
  }
  CHECK(h.count() == values.size());
  CHECK(h.min() == values.front());
  CHECK(h.max() == values.back());
}

TEST_CASE("small values are exact and buckets tile the range", "[stats]") {
  for (std::uint64_t v = 0; v < 128; ++v) CHECK(LogLinearHistogram::bucket_value(LogLinearHistogram::index_of(v)) == v);
  for (std::uint64_t v : {128ULL, 1000ULL, 123456ULL, 1ULL << 40, (1ULL << 63) + 12345}) {
    const auto i = LogLinearHistogram::index_of(v);
    CHECK(LogLinearHistogram::bucket_low(i) <= v);
    CHECK(LogLinearHistogram::bucket_low(i + 1) > v);
  }
}
