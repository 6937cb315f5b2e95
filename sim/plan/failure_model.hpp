// Failures and the checkpoint interval. Failures of the N accelerators are taken as
// independent and exponential, and any one stops the job: cluster MTBF M = MTTF / N.
//   Young 1974:  T_opt = sqrt(2 delta M)
//   Daly 2006:   T_opt = sqrt(2 delta M) - delta   (first-order form, delta < 2M)
//   First order: waste per unit of useful work = delta/T + (T/2 + R)/M
//                (delta per interval T of work; each failure, at rate 1/M, loses on
//                average half an interval and the restart R; Young 1974, Daly 2006)
//   Availability (useful / wall time) with exponential failures (Daly 2006, complete model):
//                A = T / (M e^{R/M} (e^{(T+delta)/M} - 1)),  -> T / (T + delta) as M -> inf
// delta is the time training stops per checkpoint, R the time from a failure until
// training runs again (restore + restart), T the training time between checkpoints.
#pragma once

namespace iowall::plan {

double young_interval(double delta, double mtbf);
double daly_interval(double delta, double mtbf);
double waste_first_order(double delta, double interval, double recovery, double mtbf);
double availability(double delta, double interval, double recovery, double mtbf);

}  // namespace iowall::plan
