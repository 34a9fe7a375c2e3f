#include "cases/registry.hpp"

#include <cstdio>

#include "core/error.hpp"

namespace squall::cases {

const std::vector<CaseInfo>& registered_cases() {
  static const std::vector<CaseInfo> list{
      {"rest_atmosphere", "isothermal atmosphere at rest between two walls; must stay at rest",
       make_rest_atmosphere},
      {"isentropic_vortex", "isentropic vortex advected through a periodic domain; exact solution",
       make_isentropic_vortex},
      {"rising_bubble", "dry warm bubble (0.5 K) rising in a neutral atmosphere (Giraldo & Restelli 2008)",
       make_rising_bubble},
      {"tracer_bubble", "the rising bubble carrying passive tracers (physics.tracers): the bubble and the height",
       make_tracer_bubble,
       {{"case", "emission", "0.0", "a finite number >= 0 (1/s)",
         "tracer_bubble: rate E at which the first tracer is emitted where the bubble starts, S = E rho b(x)",
         "tracer_bubble"}}},
      {"density_current", "cold bubble collapsing into a density current, viscous (Straka et al. 1993)",
       make_density_current},
      {"shear_wave", "decaying viscous shear wave; exact solution of the momentum equation",
       make_shear_wave},
      {"taylor_green", "Taylor-Green vortex at Re = 1600, Ma = 0.1 (kinetic energy, dissipation, enstrophy)",
       make_taylor_green},
      {"dry_bubble", "dry warm bubble (2 K) in a neutral atmosphere, the dry counterpart of moist_bubble (Bryan & Fritsch 2002)",
       make_dry_bubble,
       {{"case", "amplitude", "2.0", "a finite number in [-10, 10] (K)",
         "dry_bubble: theta' at the bubble's centre (0: the neutral atmosphere alone)", "dry_bubble"}}},
      {"moist_bubble", "saturated warm bubble in a moist-neutral atmosphere, theta_e = 320 K, r_t = 20 g/kg (Bryan & Fritsch 2002)",
       make_moist_bubble,
       {{"case", "amplitude", "2.0", "a finite number in [-10, 10] (K)",
         "moist_bubble: theta' of theta_rho = theta_rho_bar (1 + theta' / 300 K) at the bubble's centre "
         "(0: the saturated moist-neutral atmosphere alone, an exact discrete equilibrium)",
         "moist_bubble"}}},
      {"bomex", "trade-wind shallow cumulus with the full BOMEX forcing (Siebesma et al. 2003)", make_bomex,
       {{"case", "seed", "1", "an integer in [0, 2147483647]",
         "bomex: seed of the initial random perturbations (the same field on any rank count)", "bomex"},
        {"case", "theta_perturbation", "0.1", "a number of K in [0, 2]",
         "bomex: amplitude of the uniform random theta_l perturbation below 1600 m", "bomex"},
        {"case", "qt_perturbation", "2.5e-5", "a number of kg/kg in [0, 0.001]",
         "bomex: amplitude of the uniform random q_t perturbation below 1600 m", "bomex"}}},
      {"dycoms_rf01", "nocturnal marine stratocumulus cooled at its top by longwave radiation (Stevens et al. 2005)",
       make_dycoms_rf01,
       {{"case", "seed", "1", "an integer in [0, 2147483647]",
         "dycoms_rf01: seed of the initial random perturbations (the same field on any rank count)", "dycoms_rf01"},
        {"case", "theta_perturbation", "0.1", "a number of K in [0, 2]",
         "dycoms_rf01: amplitude of the uniform random theta_l perturbation below 200 m", "dycoms_rf01"},
        {"case", "qt_perturbation", "2.5e-5", "a number of kg/kg in [0, 0.001]",
         "dycoms_rf01: amplitude of the uniform random q_t perturbation below 200 m", "dycoms_rf01"}}},
      {"agnesi_hydrostatic",
       "linear hydrostatic mountain waves: 20 m/s over a 1 m Witch of Agnesi hill, isothermal 250 K "
       "(Giraldo & Restelli 2008)",
       make_agnesi_hydrostatic,
       {{"case", "wind", "20.0", "a number of m/s in [-100, 100]",
         "agnesi_hydrostatic: the uniform wind U along x (physics.sponge_velocity must be [U, 0, 0])",
         "agnesi_hydrostatic"},
        {"case", "temperature", "250.0", "a number of K in [150, 350]",
         "agnesi_hydrostatic: the temperature of the isothermal atmosphere", "agnesi_hydrostatic"}}},
      {"schar_mountain",
       "non-hydrostatic mountain waves: 10 m/s, N = 0.01 1/s over Schär's 250 m five-peaked mountain "
       "(Schär et al. 2002)",
       make_schar_mountain,
       {{"case", "wind", "10.0", "a number of m/s in [-100, 100]",
         "schar_mountain: the uniform wind U along x (physics.sponge_velocity must be [U, 0, 0])", "schar_mountain"},
        {"case", "buoyancy_frequency", "0.01", "a number of 1/s in [0.0001, 0.05]",
         "schar_mountain: N of theta = theta_0 exp(N^2 z / g)", "schar_mountain"},
        {"case", "surface_theta", "280.0", "a number of K in [200, 350]",
         "schar_mountain: theta_0, the potential temperature at the bottom (the linear Boussinesq solution "
         "does not depend on it)",
         "schar_mountain"}}},
  };
  static const bool registered = [] {  // the cases' own config keys, once
    for (const CaseInfo& c : list) io::register_case_keys(c.keys);
    return true;
  }();
  (void)registered;
  return list;
}

Real case_number(const Config& c, const char* name, Real fallback, Real lo, Real hi, const char* expected) {
  const auto it = c.case_.numbers.find(name);
  const Real v = it == c.case_.numbers.end() ? fallback : it->second;
  if (!(v >= lo && v <= hi)) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", v);
    throw InputError(c.source + ": 'case." + name + "' = " + value + ": expected " + expected);
  }
  return v;
}

const CaseInfo* find_case(const std::string& name) {
  for (const CaseInfo& c : registered_cases())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace squall::cases
