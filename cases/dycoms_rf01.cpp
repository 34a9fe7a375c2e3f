/// dycoms_rf01: the nocturnal marine stratocumulus of the first research flight of
/// DYCOMS-II, the LES intercomparison of Stevens et al. (2005), Mon. Wea. Rev. 133,
/// 1443-1462, doi:10.1175/MWR2930.1 (the numbers in ../shared/cases/dycoms_rf01.md).
/// The case supplies the initial state (cases/moist_les.hpp): below the inversion at
/// z_i = 840 m, theta_l = 289 K and q_t = 9 g/kg; above it theta_l = 297.5 + (z - z_i)^(1/3)
/// K and q_t = 1.5 g/kg; u = 7, v = -5.5 m/s (the geostrophic wind); hydrostatic from
/// p_s = 1017.8 hPa; random perturbations below 200 m of 0.1 K in theta_l and 0.025 g/kg
/// in q_t (case.* keys). diagnostics.csv also has the inversion height, the mean over
/// columns of the highest height where q_t falls through 8 g/kg (linearly interpolated
/// between the two nodes around it). The radiation, subsidence, Coriolis,
/// surface fluxes and sponge are config keys (cases/dycoms_rf01.toml).
#include "cases/moist_les.hpp"
#include "cases/registry.hpp"
#include "core/math.hpp"

namespace squall::cases {
namespace {

constexpr Real inversion = 840;  ///< z_i [m]

MoistSounding dycoms_sounding() {
  MoistSounding s;
  s.theta_l = [](Real z) { return z < inversion ? Real(289) : Real(297.5) + math::cbrt(z - inversion); };
  s.q_t = [](Real z) { return z < inversion ? Real(9e-3) : Real(1.5e-3); };
  s.u = [](Real) { return Real(7); };
  s.v = [](Real) { return Real(-5.5); };
  s.surface_pressure = 101780;
  s.perturbation_top = 200;
  s.inversion_qt = 8e-3;
  s.jumps = {inversion};
  return s;
}

}  // namespace

std::unique_ptr<Case> make_dycoms_rf01(const Config& c) {
  return std::make_unique<MoistLes>(c, dycoms_sounding(), 0.1, 2.5e-5);
}

}  // namespace squall::cases
