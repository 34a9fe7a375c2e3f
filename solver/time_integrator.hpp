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

/// A batch of members (squall ensemble --batch), each with its own time and step: the
/// state is `members` blocks of `block` reals, member m's at t[m] stepping by dt[m]. The
/// integrator writes member m's time of each stage into stage_t[m] before it calls the
/// right-hand side (whose own time argument is member 0's). Each member's arithmetic is
/// what a run of its own does with its t and dt.
struct MemberClock {
  const double* t = nullptr;
  const double* dt = nullptr;
  int members = 1;
  std::size_t block = 0;
  double* stage_t = nullptr;
};

class TimeIntegrator {
 public:
  /// `name`: "lsrk54", "lsrk144" or "ssprk33"; `size`: number of reals in the state.
  TimeIntegrator(const std::string& name, std::size_t size);

  int stages() const { return stages_; }
  /// The number of stages of the scheme `name` (InputError for an unknown one).
  static int stages_of(const std::string& name);
  const std::string& name() const { return name_; }
  /// The buffer each stage's rhs is written into: free between steps (every stage
  /// overwrites all of it before reading it), so a diagnostic evaluation of the
  /// right-hand side between steps may use it as its output.
  const FlatView& stage_buffer() const { return k_; }

  /// Advances q from t to t + dt in place; with a clock, each member of the batch from its
  /// t[m] to t[m] + dt[m] (t and dt are then member 0's), and the companion's values are
  /// the members' in turn (count / members each).
  template <class Rhs>
  void step(Rhs&& rhs, Real t, Real dt, const FlatView& q, Companion companion = {},
            const MemberClock& clock = {}) {
    const Steps steps = member_steps(t, dt, clock);
    if (lsrk_) {
      lsrk_step(rhs, steps, q, companion);
    } else {
      ssp_step(rhs, steps, q, companion);
    }
  }

  // The two schemes; public because CUDA does not allow device lambdas in private
  // member functions. Use step().

  /// The 2N-storage low-storage schemes: du = a_s du + dt rhs(t + c_s dt, q); q = q + b_s du.
  /// lsrk54: Carpenter & Kennedy (1994), "Fourth-order 2N-storage Runge-Kutta schemes",
  /// NASA TM 109112, solution 3. lsrk144: Niegemann, Diehl & Busch (2012), J. Comput.
  /// Phys. 231, 364-372, doi:10.1016/j.jcp.2011.09.003, the 14-stage fourth-order scheme
  /// (coefficients as published), whose stability region
  /// along the imaginary axis and into the left half-plane is optimized for DG spectra.
  struct LowStorageScheme {
    int stages;
    const Real* a;
    const Real* b;
    const Real* c;
  };
  static LowStorageScheme lsrk54() {
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
    return {5, a, b, c};
  }
  static LowStorageScheme lsrk144() {
    static constexpr Real a[14] = {0.0,
                                   -0.7188012108672410, -0.7785331173421570, -0.0053282796654044,
                                   -0.8552979934029281, -3.9564138245774565, -1.5780575380587385,
                                   -2.0837094552574054, -0.7483334182761610, -0.7032861106563359,
                                   0.0013917096117681,  -0.0932075369637460, -0.9514200470875948,
                                   -7.1151571693922548};
    static constexpr Real b[14] = {0.0367762454319673, 0.3136296607553959, 0.1531848691869027,
                                   0.0030097086818182, 0.3326293790646110, 0.2440251405350864,
                                   0.3718879239592277, 0.6204126221582444, 0.1524043173028741,
                                   0.0760894927419266, 0.0077604214040978, 0.0024647284755382,
                                   0.0780348340049386, 5.5059777270269628};
    static constexpr Real c[14] = {0.0,
                                   0.0367762454319673, 0.1249685262725025, 0.2446177702277698,
                                   0.2476149531070420, 0.2969311120382472, 0.3978149645802642,
                                   0.5270854589440328, 0.6981269994175695, 0.8190890835352128,
                                   0.8527059887098624, 0.8604711817462826, 0.8627060376969976,
                                   0.8734213127600976};
    return {14, a, b, c};
  }
  /// One step's times: member 0's t and dt, and with a clock of members whose steps
  /// differ, each member's (dt on the device too).
  struct Steps {
    Real t, dt;
    MemberClock clock;
    bool per_member = false;  ///< the members' dt differ: the stages update block by block
    DeviceView<Real*> dts;    ///< each member's dt
    /// Member of companion value i (count values in all).
    Real dt_of(int i, int count) const { return per_member ? clock.dt[i / (count / clock.members)] : dt; }
    void set_stage_times(Real c) const {
      if (clock.stage_t)
        for (int m = 0; m < clock.members; ++m) clock.stage_t[m] = clock.t[m] + c * clock.dt[m];
    }
  };
  Steps member_steps(Real t, Real dt, const MemberClock& clock) {
    Steps s{t, dt, clock, false, member_dt_};
    if (!clock.dt) return s;
    for (int m = 0; m < clock.members; ++m) s.per_member |= clock.dt[m] != dt;
    if (s.per_member) {
      if (static_cast<int>(member_dt_.extent(0)) != clock.members)
        member_dt_ = DeviceView<Real*>("rk::member_dt", clock.members);
      const auto host = Kokkos::create_mirror_view(member_dt_);
      for (int m = 0; m < clock.members; ++m) host(m) = clock.dt[m];
      Kokkos::deep_copy(member_dt_, host);
      s.dts = member_dt_;
    }
    return s;
  }
  template <class Rhs>
  void lsrk_step(Rhs& rhs, const Steps& steps, const FlatView& q, Companion companion) {
    const LowStorageScheme scheme = stages_ == 14 ? lsrk144() : lsrk54();
    const FlatView k = k_, du = register_;
    const int n = static_cast<int>(q.extent(0));
    const Real t = steps.t, dt = steps.dt;
    std::vector<double> companion_register(companion.count, 0.0);
    for (int s = 0; s < scheme.stages; ++s) {
      steps.set_stage_times(scheme.c[s]);
      rhs(t + scheme.c[s] * dt, q, k);
      const Real as = scheme.a[s], bs = scheme.b[s];
      for (int i = 0; i < companion.count; ++i) {
        companion_register[i] = as * companion_register[i] + steps.dt_of(i, companion.count) * companion.rate[i];
        companion.value[i] += bs * companion_register[i];
      }
      if (steps.per_member) {
        const DeviceView<Real*> dts = steps.dts;
        const long block = static_cast<long>(steps.clock.block);
        parallel_for("rk::lsrk_stage_members", steps.clock.members, static_cast<int>(block),
                     KOKKOS_LAMBDA(const int m, const int j) {
                       const long i = m * block + j;
                       const Real d = as * du(i) + dts(m) * k(i);
                       du(i) = d;
                       q(i) += bs * d;
                     });
        continue;
      }
      parallel_for("rk::lsrk_stage", n, KOKKOS_LAMBDA(const int i) {
        const Real d = as * du(i) + dt * k(i);
        du(i) = d;
        q(i) += bs * d;
      });
    }
  }

  /// Shu & Osher (1988), J. Comput. Phys. 77, 439-471, eq. 2.18:
  /// q = alpha_s q0 + beta_s (q + dt rhs(t + c_s dt, q)).
  template <class Rhs>
  void ssp_step(Rhs& rhs, const Steps& steps, const FlatView& q, Companion companion) {
    static constexpr Real alpha[3] = {0.0, 0.75, 1.0 / 3.0};
    static constexpr Real beta[3] = {1.0, 0.25, 2.0 / 3.0};
    static constexpr Real c[3] = {0.0, 1.0, 0.5};
    const FlatView k = k_, q0 = register_;
    Kokkos::deep_copy(q0, q);
    const int n = static_cast<int>(q.extent(0));
    const Real t = steps.t, dt = steps.dt;
    const std::vector<double> companion_start(companion.value, companion.value + companion.count);
    for (int s = 0; s < 3; ++s) {
      steps.set_stage_times(c[s]);
      rhs(t + c[s] * dt, q, k);
      const Real as = alpha[s], bs = beta[s];
      for (int i = 0; i < companion.count; ++i)
        companion.value[i] = as * companion_start[i] +
                             bs * (companion.value[i] + steps.dt_of(i, companion.count) * companion.rate[i]);
      if (steps.per_member) {
        const DeviceView<Real*> dts = steps.dts;
        const long block = static_cast<long>(steps.clock.block);
        parallel_for("rk::ssprk33_stage_members", steps.clock.members, static_cast<int>(block),
                     KOKKOS_LAMBDA(const int m, const int j) {
                       const long i = m * block + j;
                       q(i) = as * q0(i) + bs * (q(i) + dts(m) * k(i));
                     });
        continue;
      }
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
  DeviceView<Real*> member_dt_;  ///< a batch's dt of each member (MemberClock)
};

inline int TimeIntegrator::stages_of(const std::string& name) {
  if (name == "lsrk54") return 5;
  if (name == "lsrk144") return 14;
  if (name == "ssprk33") return 3;
  throw InputError("unknown time integrator '" + name + "'; expected lsrk54, lsrk144 or ssprk33");
}

inline TimeIntegrator::TimeIntegrator(const std::string& name, std::size_t size)
    : name_(name), lsrk_(name != "ssprk33"), stages_(stages_of(name)) {
  k_ = FlatView("rk::k", size);
  register_ = FlatView("rk::register", size);
}

}  // namespace squall
