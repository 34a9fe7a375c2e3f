#include "cases/registry.hpp"

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
  };
  static const bool registered = [] {  // the cases' own config keys, once
    for (const CaseInfo& c : list) io::register_case_keys(c.keys);
    return true;
  }();
  (void)registered;
  return list;
}

const CaseInfo* find_case(const std::string& name) {
  for (const CaseInfo& c : registered_cases())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace squall::cases
