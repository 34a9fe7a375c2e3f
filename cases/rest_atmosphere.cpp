/// rest_atmosphere: an isothermal atmosphere at rest, T = 300 K,
/// p = p_0 exp(-g z / (R_d T)), rho = p / (R_d T). Its own discrete state is the
/// reference state, so it is an exact discrete equilibrium: it must stay at rest.
/// Diagnostics: max_speed, the largest |u| of the final state, and max_speed_any_step,
/// the largest after any time step (a post-step hook; kept across restarts).
#include <algorithm>
#include <cmath>

#include "cases/registry.hpp"
#include "core/launch.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {
namespace {

struct IsothermalRest {
  Real T;
  Real g;
  physics::GasParameters gas;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real, Real, Real z) const {
    const Real p = gas.p_0 * math::exp(-g * z / (gas.R_d * T));
    const Real rho = p / (gas.R_d * T);
    return {rho, 0, 0, 0, T, rho, p};
  }
};

class RestAtmosphere : public Case {
 public:
  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    const dg::Equations eq = equations();
    fill_pointwise("case::rest_atmosphere", eq, x, q, aux, gravity(), IsothermalRest{300.0, gravity(), eq.gas});
    reference_from_state(eq, q, aux);
  }
  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override {
    double local = 0;  // max |u| [m/s]
    for (size_t e = 0; e < s.q.extent(0); ++e)
      for (size_t n = 0; n < s.q.extent(2); ++n) {
        const Real rho = s.q(e, dg::Equations::i_rho, n);
        Real speed2 = 0;
        for (int d = 0; d < 3; ++d) speed2 += s.q(e, dg::Equations::i_rhou + d, n) * s.q(e, dg::Equations::i_rhou + d, n);
        local = std::max(local, std::sqrt(speed2) / rho);
      }
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
    return {{"max_speed", global}, {"max_speed_any_step", max_speed_any_step_}};
  }
  void post_step(Real, const dg::StateView& q, MPI_Comm comm) override {
    const int nodes = static_cast<int>(q.extent(2));
    const Real local = parallel_max("case::rest_atmosphere_speed", static_cast<int>(q.extent(0)), nodes,
                                    KOKKOS_LAMBDA(const int e, const int n) {
                                      Real s2 = 0;
                                      for (int d = 0; d < 3; ++d)
                                        s2 += q(e, dg::Equations::i_rhou + d, n) * q(e, dg::Equations::i_rhou + d, n);
                                      return math::sqrt(s2) / q(e, dg::Equations::i_rho, n);
                                    });
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
    max_speed_any_step_ = std::max(max_speed_any_step_, global);
  }
  std::vector<double> saved_state() const override { return {max_speed_any_step_}; }
  void restore_state(const std::vector<double>& v) override { max_speed_any_step_ = v.at(0); }

 private:
  double max_speed_any_step_ = 0;
};

}  // namespace

std::unique_ptr<Case> make_rest_atmosphere(const Config&) { return std::make_unique<RestAtmosphere>(); }

}  // namespace squall::cases
