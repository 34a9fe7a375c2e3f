/// bomex: trade-wind shallow cumulus of the Barbados Oceanographic and Meteorological
/// Experiment, the LES intercomparison of Siebesma et al. (2003), J. Atmos. Sci. 60,
/// 1201-1219, doi:10.1175/1520-0469(2003)60<1201:ALESIS>2.0.CO;2 (the numbers in
/// ../shared/cases/bomex.md, the same in the public set-ups of MicroHH, PyCLES,
/// ClimateMachine and ERF).
/// The case supplies the initial state (cases/moist_les.hpp): the piecewise-linear
/// profiles of theta_l, q_t and u (v = 0) of the paper's table, in hydrostatic balance
/// from p_s = 1015 hPa, and random perturbations below 1600 m of 0.1 K in theta_l and
/// 0.025 g/kg in q_t. The forcing (subsidence, radiative cooling, moisture advection,
/// Coriolis and the geostrophic wind, the geostrophic sponge) and the surface fluxes are
/// config keys ([forcing], [surface]; cases/bomex.toml).
#include "cases/moist_les.hpp"
#include "cases/registry.hpp"
#include "physics/large_scale_forcing.hpp"

namespace squall::cases {
namespace {

physics::Profile profile(std::initializer_list<std::array<Real, 2>> points) {
  physics::Profile p;
  for (const auto& [z, v] : points) p.z[p.points] = z, p.value[p.points] = v, ++p.points;
  return p;
}
/// Siebesma et al. (2003), table 1 / appendix B.
const physics::Profile theta_l_profile =
    profile({{0, 298.7}, {520, 298.7}, {1480, 302.4}, {2000, 308.2}, {3000, 311.85}});
const physics::Profile q_t_profile =
    profile({{0, 17.0e-3}, {520, 16.3e-3}, {1480, 10.7e-3}, {2000, 4.2e-3}, {3000, 3.0e-3}});
const physics::Profile u_profile = profile({{0, -8.75}, {700, -8.75}, {3000, -4.61}});

MoistSounding bomex_sounding() {
  MoistSounding s;
  s.theta_l = [](Real z) { return theta_l_profile(z); };
  s.q_t = [](Real z) { return q_t_profile(z); };
  s.u = [](Real z) { return u_profile(z); };
  s.v = [](Real) { return Real(0); };
  s.surface_pressure = 101500;
  s.perturbation_top = 1600;
  return s;
}

}  // namespace

std::unique_ptr<Case> make_bomex(const Config& c) { return std::make_unique<MoistLes>(c, bomex_sounding(), 0.1, 2.5e-5); }

}  // namespace squall::cases
