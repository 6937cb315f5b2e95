#include "sim/plan/failure_model.hpp"

#include <cmath>

namespace iowall::plan {

double young_interval(double delta, double mtbf) { return std::sqrt(2.0 * delta * mtbf); }

double daly_interval(double delta, double mtbf) {
  // Daly's estimate holds for delta < 2M; beyond it he takes T = M.
  if (delta >= 2.0 * mtbf) return mtbf;
  return std::sqrt(2.0 * delta * mtbf) - delta;
}

double waste_first_order(double delta, double interval, double recovery, double mtbf) {
  return delta / interval + (interval / 2.0 + recovery) / mtbf;
}

double availability(double delta, double interval, double recovery, double mtbf) {
  if (interval <= 0) return 0;
  // expm1 keeps precision when (T + delta) << M, the usual case.
  return interval / (mtbf * std::exp(recovery / mtbf) * std::expm1((interval + delta) / mtbf));
}

}  // namespace iowall::plan
