#pragma once
/// Explicit Runge-Kutta time integrators for dq/dt = rhs(t, q). They know nothing of DG:
/// the state is a flat device View and rhs is any callable rhs(t, q, dq).
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/launch.hpp"
#include "core/types.hpp"

namespace squall {

using FlatView = DeviceView<Real*>;

/// Scalars integrated alongside the state with the same stage weights, so that they
/// change exactly as the state's integrals would under their time derivatives: after
/// each rhs call, rate[0..count) holds those derivatives (e.g. the mass and energy
/// entering through the walls per second) and value[0..count) accumulates their
/// integrals.
struct Companion {
  const double* rate = nullptr;
  double* value = nullptr;
  int count = 0;
};

class TimeIntegrator {
 public:
  /// `name`: "lsrk54" or "ssprk33"; `size`: number of reals in the state.
  TimeIntegrator(const std::string& name, std::size_t size);

  int stages() const { return stages_; }
  const std::string& name() const { return name_; }

  /// Advances q from t to t + dt in place.
  template <class Rhs>
  void step(Rhs&& rhs, Real t, Real dt, const FlatView& q, Companion companion = {}) {
    if (lsrk_) {
      lsrk_step(rhs, t, dt, q, companion);
    } else {
      ssp_step(rhs, t, dt, q, companion);
    }
  }

  // The two schemes; public because CUDA does not allow device lambdas in private
  // member functions. Use step().

  /// Carpenter & Kennedy (1994), "Fourth-order 2N-storage Runge-Kutta schemes", NASA TM
  /// 109112, solution 3: du = a_s du + dt rhs(t + c_s dt, q); q = q + b_s du.
  template <class Rhs>
  void lsrk_step(Rhs& rhs, Real t, Real dt, const FlatView& q, Companion companion) {
    static constexpr Real a[5] = {0.0, -567301805773.0 / 1357537059087.0,
                                  -2404267990393.0 / 2016746695238.0,
                                  -3550918686646.0 / 2091501179385.0,
                                  -1275806237668.0 / 842570457699.0};
    static constexpr Real b[5] = {1432997174477.0 / 9575080441755.0,
                                  5161836677717.0 / 13612068292357.0,
                                  1720146321549.0 / 2090206949498.0,
                                  3134564353537.0 / 4481467310338.0,
                                  2277821191437.0 / 14882151754819.0};
    static constexpr Real c[5] = {0.0, 1432997174477.0 / 9575080441755.0,
                                  2526269341429.0 / 6820363962896.0,
                                  2006345519317.0 / 3224310063776.0,
                                  2802321613138.0 / 2924317926251.0};
    const FlatView k = k_, du = register_;
    const int n = static_cast<int>(q.extent(0));
    std::vector<double> companion_register(companion.count, 0.0);
    for (int s = 0; s < 5; ++s) {
      rhs(t + c[s] * dt, q, k);
      const Real as = a[s], bs = b[s];
      for (int i = 0; i < companion.count; ++i) {
        companion_register[i] = as * companion_register[i] + dt * companion.rate[i];
        companion.value[i] += bs * companion_register[i];
      }
      parallel_for("rk::lsrk54_stage", n, KOKKOS_LAMBDA(const int i) {
        const Real d = as * du(i) + dt * k(i);
        du(i) = d;
        q(i) += bs * d;
      });
    }
  }

  /// Shu & Osher (1988), J. Comput. Phys. 77, 439-471, eq. 2.18:
  /// q = alpha_s q0 + beta_s (q + dt rhs(t + c_s dt, q)).
  template <class Rhs>
  void ssp_step(Rhs& rhs, Real t, Real dt, const FlatView& q, Companion companion) {
    static constexpr Real alpha[3] = {0.0, 0.75, 1.0 / 3.0};
    static constexpr Real beta[3] = {1.0, 0.25, 2.0 / 3.0};
    static constexpr Real c[3] = {0.0, 1.0, 0.5};
    const FlatView k = k_, q0 = register_;
    Kokkos::deep_copy(q0, q);
    const int n = static_cast<int>(q.extent(0));
    const std::vector<double> companion_start(companion.value, companion.value + companion.count);
    for (int s = 0; s < 3; ++s) {
      rhs(t + c[s] * dt, q, k);
      const Real as = alpha[s], bs = beta[s];
      for (int i = 0; i < companion.count; ++i)
        companion.value[i] = as * companion_start[i] + bs * (companion.value[i] + dt * companion.rate[i]);
      parallel_for("rk::ssprk33_stage", n, KOKKOS_LAMBDA(const int i) {
        q(i) = as * q0(i) + bs * (q(i) + dt * k(i));
      });
    }
  }

 private:
  std::string name_;
  bool lsrk_ = true;
  int stages_ = 5;
  FlatView k_;         ///< rhs of the current stage
  FlatView register_;  ///< LSRK: the 2N-storage register; SSP: the state at t
};

inline TimeIntegrator::TimeIntegrator(const std::string& name, std::size_t size) : name_(name) {
  if (name == "lsrk54") {
    lsrk_ = true, stages_ = 5;
  } else if (name == "ssprk33") {
    lsrk_ = false, stages_ = 3;
  } else {
    throw InputError("unknown time integrator '" + name + "'; expected lsrk54 or ssprk33");
  }
  k_ = FlatView("rk::k", size);
  register_ = FlatView("rk::register", size);
}

}  // namespace squall
