#include "sim/core/stats.hpp"

namespace iowall {

void StatRegistry::add(std::string path, std::string unit, std::string description, const Counter& c) {
  entries_.push_back({std::move(path), std::move(unit), std::move(description), StatKind::counter, &c});
}
void StatRegistry::add(std::string path, std::string unit, std::string description, const TimeWeighted& g,
                       i64 capacity) {
  entries_.push_back(
      {std::move(path), std::move(unit), std::move(description), StatKind::gauge, &g, capacity});
}
void StatRegistry::add(std::string path, std::string unit, std::string description,
                       const LogLinearHistogram& h) {
  entries_.push_back({std::move(path), std::move(unit), std::move(description), StatKind::histogram, &h});
}
void StatRegistry::add(std::string path, std::string unit, std::string description, const TimeSeries& s) {
  entries_.push_back({std::move(path), std::move(unit), std::move(description), StatKind::series, &s});
}

}  // namespace iowall
