#include <cmath>
#include <cstdio>
#include <string>

#include "io/terrain_file.hpp"
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

dg::Mapping mesh_mapping(const Config& config) {
  if (config.mesh.warp > 0) {
    // The test warp: zero displacement of x on the x walls and of y on the y walls, and
    // periodic in x and y, so the domain stays the same box. math:: for the same bits on
    // every machine.
    const double A = config.mesh.warp;
    const auto& dom = config.mesh.domain;
    return [A, dom](const std::array<double, 3>& p) {
      const double two_pi = 2 * M_PI;
      const double L[3] = {dom[0][1] - dom[0][0], dom[1][1] - dom[1][0], dom[2][1] - dom[2][0]};
      const double sx = math::sin(two_pi * (p[0] - dom[0][0]) / L[0]);
      const double sy = math::sin(two_pi * (p[1] - dom[1][0]) / L[1]);
      const double cy = math::cos(two_pi * (p[1] - dom[1][0]) / L[1]);
      return std::array<double, 3>{p[0] + A * L[0] * sx * sy, p[1] + A * L[1] * sx * sy, p[2] + A * L[2] * sx * cy};
    };
  }
  const TerrainConfig& t = config.terrain;
  if (!t.active()) return {};
  const mesh::Decay decay = t.decay == "smooth" ? mesh::Decay::smooth : mesh::Decay::linear;
  const double bottom = config.mesh.domain[2][0], top = config.mesh.domain[2][1];
  const auto mapping = [&]() {
    if (t.shape == "file")
      return std::make_shared<mesh::TerrainMapping>(io::read_terrain(t.file, t.variable), decay, bottom, top,
                                                    t.decay_scale);
    mesh::Hill hill;
    hill.shape = mesh::hill_shape(t.shape);
    hill.height = t.height, hill.half_width = t.half_width, hill.wavelength = t.wavelength;
    hill.x_c = t.x_center, hill.y_c = t.y_center;
    return std::make_shared<mesh::TerrainMapping>(hill, decay, bottom, top, t.decay_scale);
  }();
  return [mapping](const std::array<double, 3>& p) {
    return std::array<double, 3>{p[0], p[1], mapping->height(p[0], p[1], p[2])};
  };
}

dg::OperatorOptions operator_options(const Config& config, Real gravity) {
  const auto& p = config.physics;
  dg::OperatorOptions o;
  o.gravity = gravity;
  o.split_form = config.dg.volume_flux == "kennedy_gruber";
  if (config.dg.kernel_layout == "elements" || config.dg.kernel_layout == "packs")
    o.kernel_layout = dg::KernelLayout::elements;
  o.element_packs = config.dg.kernel_layout != "elements";  // "auto" and "packs" (host backends)
  if (config.dg.kernel_layout == "nodes") o.kernel_layout = dg::KernelLayout::nodes;
  if (config.dg.kernel_layout == "teams") o.kernel_layout = dg::KernelLayout::teams;
  o.viscosity = p.viscosity;
  o.prandtl = p.prandtl;
  o.closure = p.closure == "smagorinsky" ? dg::Closure::smagorinsky
              : p.closure == "vreman"    ? dg::Closure::vreman
                                         : dg::Closure::constant;
  o.smagorinsky_cs = p.smagorinsky_cs;
  o.turbulent_prandtl = p.turbulent_prandtl;
  o.cloud_interior = p.cloud_stratification == "interior";
  o.schmidt = p.schmidt;
  o.turbulent_schmidt = p.turbulent_schmidt;
  o.theta_diffusion = p.heat_diffusion == "potential_temperature";
  const bool sides = p.sponge_side_widths[0] > 0 || p.sponge_side_widths[1] > 0;
  o.sponge = (p.sponge_height > 0 || sides) && p.sponge_strength > 0;
  const double top = config.mesh.domain[2][1];
  o.sponge_layer = {p.sponge_height > 0 ? config.mesh.domain[2][0] + p.sponge_height : top, top, p.sponge_strength,
                    p.sponge_exponent, {p.sponge_velocity[0], p.sponge_velocity[1], p.sponge_velocity[2]}};
  for (int d = 0; d < 2; ++d) {
    o.sponge_layer.side_width[d] = p.sponge_side_widths[d];
    o.sponge_layer.side_low[d] = config.mesh.domain[d][0];
    o.sponge_layer.side_high[d] = config.mesh.domain[d][1];
  }
  for (int w = 0; w < 6; ++w) {
    const std::string& kind = config.boundary.kind[w];
    for (int k = 0; k < physics::nwall_kinds; ++k)
      if (kind == physics::wall_kinds[k].name) o.walls.kind[w] = k;
    o.walls.temperature[w] = config.boundary.temperature[w];
  }
  const ForcingConfig& fc = config.forcing;
  const auto to_profile = [](const ForcingConfig::Profile& points) {
    physics::Profile profile;
    profile.points = static_cast<int>(points.size());
    for (int i = 0; i < profile.points; ++i) profile.z[i] = points[i][0], profile.value[i] = points[i][1];
    return profile;
  };
  o.forcing.coriolis = fc.coriolis;
  o.forcing.geostrophic[0] = to_profile(fc.geostrophic_u);
  o.forcing.geostrophic[1] = to_profile(fc.geostrophic_v);
  o.forcing.subsidence = to_profile(fc.subsidence);
  o.forcing.heating = to_profile(fc.theta_tendency);
  o.forcing.drying = to_profile(fc.qt_tendency);
  o.forcing.geostrophic_sponge = fc.geostrophic_sponge;
  if (fc.geostrophic_sponge) o.forcing.sponge = o.sponge_layer, o.sponge = false;
  o.forcing_bottom = config.mesh.domain[2][0];
  const RadiationConfig& rc = config.radiation;
  o.radiation = rc.scheme == "dycoms";
  o.radiation_scheme = {rc.flux_top,   rc.flux_base,        rc.absorption,   rc.alpha_z, rc.inversion_density,
                        rc.divergence, physics::DycomsRadiation{}.cp, rc.inversion_height, rc.inversion_qt};
  const SurfaceConfig& sc = config.surface;
  o.walls.surface = {sc.heat_flux,      sc.water_flux,        sc.friction_velocity, sc.drag_coefficient,
                     sc.heat_transfer, sc.moisture_transfer, sc.temperature};
  return o;
}

void summarize_solution(io::RunSummary& s, const physics::VariableInfo& info, const Case& the_case,
                        const HostSolution& host, const NodeWeights& weights, const dg::CoordView& x,
                        const RunState& run, MPI_Comm comm) {
  const int elements = static_cast<int>(host.q.extent(0)), nvar = static_cast<int>(host.q.extent(1));
  const int nodes = static_cast<int>(host.q.extent(2));
  s.has_solution = true;
  set_conservation(s, info, ledger(run, conserved_integrals(host, info.conserved, weights, comm)));
  s.state_checksum = state_checksum(host, comm);
  const double volume = host.domain_volume;
  {
    std::vector<double> ignored;
    for (const auto& f : info.conservative) s.state_variables.push_back(f.name);
    error_norms(host.q, HostView<Real***>(), weights, volume, comm, s.state_l2, ignored);
  }
  if (the_case.has_exact_solution()) {
    const dg::StateView exact("dg::exact", elements, nvar, nodes);
    the_case.exact_solution(run.t, x, exact);
    const HostView<Real***> exact_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), exact);
    s.error_variables = s.state_variables;
    error_norms(host.q, exact_host, weights, volume, comm, s.l2_errors, s.linf_errors);
  }
  for (const auto& d : the_case.diagnostics(host, comm)) s.case_diagnostics.emplace_back(d.name, d.value);
  s.note.clear();
}

std::string field_file_name(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "fields_%06d.nc", index);
  return name;
}

}  // namespace squall::detail
