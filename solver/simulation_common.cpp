#include <cstdio>
#include <string>

#include "solver/simulation_impl.hpp"

namespace squall::detail {

std::string format_duration(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9) return "?";
  const long s = static_cast<long>(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else if (s >= 60)
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%.1fs", seconds);
  return text;
}

dg::OperatorOptions operator_options(const Config& config, Real gravity) {
  const auto& p = config.physics;
  dg::OperatorOptions o;
  o.gravity = gravity;
  o.split_form = config.dg.volume_flux == "kennedy_gruber";
  o.viscosity = p.viscosity;
  o.prandtl = p.prandtl;
  o.closure = p.closure == "smagorinsky" ? dg::Closure::smagorinsky
              : p.closure == "vreman"    ? dg::Closure::vreman
                                         : dg::Closure::constant;
  o.smagorinsky_cs = p.smagorinsky_cs;
  o.turbulent_prandtl = p.turbulent_prandtl;
  o.schmidt = p.schmidt;
  o.turbulent_schmidt = p.turbulent_schmidt;
  o.theta_diffusion = p.heat_diffusion == "potential_temperature";
  o.sponge = p.sponge_height > 0 && p.sponge_strength > 0;
  o.sponge_layer = {config.mesh.domain[2][0] + p.sponge_height, config.mesh.domain[2][1], p.sponge_strength,
                    p.sponge_exponent, {p.sponge_velocity[0], p.sponge_velocity[1], p.sponge_velocity[2]}};
  for (int w = 0; w < 6; ++w) {
    const std::string& kind = config.boundary.kind[w];
    for (int k = 0; k < physics::nwall_kinds; ++k)
      if (kind == physics::wall_kinds[k].name) o.walls.kind[w] = k;
    o.walls.temperature[w] = config.boundary.temperature[w];
  }
  return o;
}

void set_conservation(io::RunSummary& s, const physics::VariableInfo& info, const Ledger& l) {
  for (std::size_t c = 0; c < l.change.size(); ++c) {
    const std::string& name = info.budget_names[c];
    if (name == "mass") {
      s.mass_relative_change = l.change[c];
      s.mass_budget_residual = l.residual[c];
    } else if (name == "energy") {
      s.total_energy_relative_change = l.change[c];
      s.energy_budget_residual = l.residual[c];
    } else {  // tracers: <name>_mass_relative_change, <name>_mass_budget_residual
      s.other_conservation.emplace_back(info.conserved_names[c] + "_relative_change", l.change[c]);
      s.other_conservation.emplace_back(name + "_budget_residual", l.residual[c]);
    }
  }
}

std::string field_file_name(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "fields_%06d.nc", index);
  return name;
}

}  // namespace squall::detail
