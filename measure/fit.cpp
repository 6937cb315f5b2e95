#include "measure/fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace iowall::fit {

Quality quality(const Eigen::VectorXd& observed, const Eigen::VectorXd& fitted, int parameters) {
  Quality q;
  q.points = static_cast<int>(observed.size());
  q.parameters = parameters;
  if (q.points == 0) return q;
  const Eigen::VectorXd res = observed - fitted;
  const double mean = observed.mean();
  const double ss_tot = (observed.array() - mean).square().sum();
  const double ss_res = res.squaredNorm();
  // With no spread in the data, a fit that matches it exactly explains all of it.
  q.r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res == 0 ? 1.0 : 0.0);
  q.rms_residual = std::sqrt(ss_res / q.points);
  q.max_abs_residual = res.cwiseAbs().maxCoeff();
  return q;
}

LinearResult linear(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& w) {
  if (x.rows() != y.size()) throw std::invalid_argument("design and observations differ in length");
  if (x.rows() < x.cols()) throw std::invalid_argument("fewer points than parameters");
  Eigen::MatrixXd xw = x;
  Eigen::VectorXd yw = y;
  if (w.size() == y.size()) {
    xw = w.asDiagonal() * x;
    yw = w.asDiagonal() * y;
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(xw);
  if (qr.rank() < x.cols()) throw std::invalid_argument("the points do not determine every parameter");
  LinearResult r;
  r.beta = qr.solve(yw);
  r.fitted = x * r.beta;
  r.q = quality(y, r.fitted, static_cast<int>(x.cols()));
  return r;
}

namespace {
// Forward differences of the residuals at `p` (whose residuals are `r`), a column per
// parameter, each step relative to the parameter's size.
void jacobian(const Residuals& f, const Eigen::VectorXd& p, const Eigen::VectorXd& r, Eigen::VectorXd& r_step,
              Eigen::MatrixXd& jac) {
  for (Eigen::Index k = 0; k < p.size(); ++k) {
    const double h = 1e-7 * std::max(std::fabs(p[k]), 1e-3);
    Eigen::VectorXd q = p;
    q[k] += h;
    f(q, r_step);
    jac.col(k) = (r_step - r) / h;
  }
}
}  // namespace

LmResult levenberg_marquardt(const Residuals& f, Eigen::VectorXd p, int points, const LmOptions& o) {
  const auto n = p.size();
  Eigen::VectorXd r(points), r_try(points), r_step(points);
  f(p, r);
  double cost = r.squaredNorm();
  double lambda = 1e-3;
  LmResult out;
  Eigen::MatrixXd jac(points, n);
  for (int it = 0; it < o.max_iterations; ++it) {
    out.iterations = it + 1;
    jacobian(f, p, r, r_step, jac);
    const Eigen::MatrixXd jtj = jac.transpose() * jac;
    const Eigen::VectorXd g = jac.transpose() * r;
    bool improved = false;
    // Raise the damping until a step lowers the cost (or the damping gives up).
    while (lambda < 1e12) {
      Eigen::MatrixXd a = jtj;
      a.diagonal() += lambda * jtj.diagonal().cwiseMax(1e-12);
      const Eigen::VectorXd step = a.ldlt().solve(-g);
      const Eigen::VectorXd p_try = p + step;
      f(p_try, r_try);
      const double c_try = r_try.squaredNorm();
      if (std::isfinite(c_try) && c_try < cost) {
        const double drop = (cost - c_try) / std::max(cost, 1e-300);
        p = p_try;
        r = r_try;
        cost = c_try;
        lambda = std::max(lambda / 10, 1e-12);
        improved = true;
        if (drop < o.tolerance) out.converged = true;
        break;
      }
      lambda *= 10;
    }
    if (!improved) out.converged = true;  // no step lowers the cost: a minimum, to tolerance
    if (out.converged) break;
  }
  out.p = p;
  out.cost = cost;
  return out;
}

Eigen::VectorXd standard_errors(const Residuals& f, const Eigen::VectorXd& p, int points) {
  const auto n = p.size();
  if (points <= n) return {};
  Eigen::VectorXd r(points), r_step(points);
  f(p, r);
  Eigen::MatrixXd jac(points, n);
  jacobian(f, p, r, r_step, jac);
  const Eigen::MatrixXd jtj = jac.transpose() * jac;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(jtj);
  if (!lu.isInvertible()) return {};
  const double s2 = r.squaredNorm() / static_cast<double>(points - n);
  const Eigen::VectorXd var = s2 * lu.inverse().diagonal();
  if (!var.allFinite() || (var.array() < 0).any()) return {};
  return var.cwiseSqrt();
}

}  // namespace iowall::fit
