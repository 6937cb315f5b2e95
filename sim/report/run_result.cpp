#include "sim/report/run_result.hpp"

namespace iowall {

const PathResult* RunResult::path(const std::string& label) const {
  for (const PathResult& p : paths)
    if (p.label == label) return &p;
  return nullptr;
}

}  // namespace iowall
