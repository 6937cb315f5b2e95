// Least-squares fitting for calibration: linear models solved with Eigen's QR, and a
// small Levenberg-Marquardt for the nonlinear ones, each with its fit quality.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Dense>

namespace iowall::fit {

// Fit quality over the points a model was fitted to.
struct Quality {
  double r2 = 0;            // 1 - SS_res / SS_tot, in the space the residuals were taken
  double rms_residual = 0;  // root mean square of the residuals
  double max_abs_residual = 0;
  int points = 0;
  int parameters = 0;
};

Quality quality(const Eigen::VectorXd& observed, const Eigen::VectorXd& fitted, int parameters);

struct LinearResult {
  Eigen::VectorXd beta;
  Eigen::VectorXd fitted;
  Quality q;
};

// Minimizes |X beta - y|^2 (optionally weighted per row by w). Needs at least as many
// rows as columns and a design of full column rank; throws std::invalid_argument if not.
LinearResult linear(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& w = {});

// Residual function for Levenberg-Marquardt: given parameters p, fills r (one entry per point).
using Residuals = std::function<void(const Eigen::VectorXd& p, Eigen::VectorXd& r)>;

struct LmOptions {
  int max_iterations = 200;
  double tolerance = 1e-10;  // stop when the relative drop of the cost is below this
};

struct LmResult {
  Eigen::VectorXd p;
  double cost = 0;  // sum of squared residuals at p
  int iterations = 0;
  bool converged = false;
};

// Levenberg-Marquardt with a forward-difference Jacobian and Marquardt's diagonal scaling.
LmResult levenberg_marquardt(const Residuals& f, Eigen::VectorXd p0, int points, const LmOptions& o = {});

// Standard errors of a least-squares fit's parameters at its solution p: the square roots
// of the diagonal of s^2 (J^T J)^-1, with s^2 = SS_res / (points - parameters) the
// residuals' variance and J the residuals' Jacobian (forward differences, as the fit's
// own). For parameters fitted in log space they are relative errors. Empty when there are
// no more points than parameters or J^T J is singular.
Eigen::VectorXd standard_errors(const Residuals& f, const Eigen::VectorXd& p, int points);

}  // namespace iowall::fit
