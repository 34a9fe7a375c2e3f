#include "io/config_keys.hpp"

#include <cstdio>
#include <deque>

#include "core/config.hpp"
#include "physics/wall_kinds.hpp"

namespace squall::io {

const std::vector<std::string>& config_sections() {
  static const std::vector<std::string> sections{"case", "mesh", "terrain", "dg", "physics", "boundary", "surface",
                                                 "forcing", "radiation", "time", "output"};
  return sections;
}

namespace {

/// The [boundary] keys, two per wall, with the choices of the registry of wall kinds
/// (physics/wall_kinds.hpp). Their text lives as long as the program.
std::vector<KeySpec> boundary_keys() {
  static std::deque<std::string> text;  // stable addresses
  std::string choices, meanings;
  for (const auto& kind : physics::wall_kinds) {
    choices += std::string(choices.empty() ? "one of " : ", ") + "\"" + kind.name + "\"";
    meanings += std::string(meanings.empty() ? "" : "; ") + kind.name + ": " + kind.description;
  }
  text.push_back(choices);
  text.push_back("a finite number > 0 (K) for a no_slip_isothermal wall, else 0");
  const char* kind_expected = text[0].c_str();
  const char* temperature_expected = text[1].c_str();
  std::vector<KeySpec> keys;
  for (int w = 0; w < 6; ++w) {
    const std::string wall = wall_names[w];
    const std::string where = std::string("the ") + "xyz"[w / 2] + (w % 2 ? " high" : " low") + " end";
    text.push_back(wall + "_temperature");
    const char* temperature_name = text.back().c_str();
    text.push_back("wall at " + where + " (when " + "xyz"[w / 2] + " is not periodic): " + meanings);
    const char* kind_description = text.back().c_str();
    text.push_back("temperature of the " + wall + " wall when it is no_slip_isothermal");
    const char* temperature_description = text.back().c_str();
    keys.push_back({"boundary", wall_names[w], "\"free_slip\"", kind_expected, kind_description});
    keys.push_back({"boundary", temperature_name, "0.0", temperature_expected, temperature_description});
  }
  return keys;
}

std::vector<KeySpec>& case_keys() {
  static std::vector<KeySpec> keys;
  return keys;
}

/// What a [forcing] profile must be.
constexpr const char* profile_expected =
    "a list of at most 16 [height (m), value] pairs of finite numbers, heights strictly ascending";

std::vector<KeySpec> catalogue() {
  // clang-format off
  static const std::vector<KeySpec> keys{
    {"case", "name", "\"rising_bubble\"", "the name of a built-in case (see `squall cases`)",
     "built-in case that supplies initial state, boundary conditions and sources"},
    {"mesh", "elements", "[8, 1, 8]", "three integers >= 1 with nx*ny*nz <= 268435456",
     "number of hexahedral elements [nx, ny, nz]"},
    {"mesh", "domain", "[[0.0, 1000.0], [0.0, 1000.0], [0.0, 1000.0]]",
     "three [min, max] pairs of finite numbers with min < max, spans of at most 1e8 m (metres)",
     "domain extent [[x0, x1], [y0, y1], [z0, z1]] in metres"},
    {"mesh", "periodic", "[true, true, false]", "three booleans",
     "periodic [x, y, z]; a direction that is not periodic has a wall at each end"},
    {"mesh", "element_heights", "[]",
     "an empty list, or mesh.elements[2] heights (m) > 0, bottom to top, that add up to the z span of mesh.domain",
     "heights of the element layers along z, bottom to top; empty: equal heights (or mesh.height_ratio)"},
    {"mesh", "height_ratio", "1.0", "a number in [0.5, 2]",
     "each element layer this many times as high as the one below it, the layers filling the z span "
     "(1: equal heights); not with mesh.element_heights"},
    {"mesh", "warp", "0.0", "a number in [0, 0.1]",
     "amplitude A of a smooth periodic warp of the whole brick, for tests of curved elements: x and y move "
     "by A L_x s and A L_y s with s = sin(2 pi x') sin(2 pi y'), z by A L_z sin(2 pi x') cos(2 pi y') (x', y' the "
     "point's fractions of the domain's spans); 0: none. Not with [terrain]"},
    {"terrain", "shape", "\"flat\"", "one of \"flat\", \"agnesi\", \"schar\", \"bell\", \"file\"",
     "surface under the mesh: none (flat), a built-in hill, or h(x, y) from terrain.file; the brick's points are "
     "raised to follow it (terrain-following, curved elements)"},
    {"terrain", "height", "0.0", "a finite number (m), below the domain's depth in absolute value",
     "h0: the hill's height (agnesi, schar, bell)"},
    {"terrain", "half_width", "1000.0", "a number > 0 (m)",
     "a: the hill's half-width (agnesi: h0 a^2/(r^2 + a^2); schar: exp(-(r/a)^2); bell: (1 + r^2/a^2)^(-3/2))"},
    {"terrain", "wavelength", "4000.0", "a number > 0 (m)",
     "lambda of Schaer's mountain, h0 exp(-(r/a)^2) cos^2(pi r / lambda)"},
    {"terrain", "x_center", "0.0", "a finite number (m)", "x of the hill's crest"},
    {"terrain", "y_center", "0.0", "a finite number (m)", "y of the bell's crest (agnesi and schar are uniform in y)"},
    {"terrain", "decay", "\"linear\"", "one of \"linear\", \"smooth\"",
     "how the terrain's displacement decays to the flat top: linearly (Gal-Chen and Somerville 1975) or as "
     "sinh((H - zeta)/s)/sinh(H/s) (SLEVE-like, Schaer et al. 2002)"},
    {"terrain", "decay_scale", "0.0", "a number > 0 (m) with terrain.decay = \"smooth\"",
     "s of the smooth decay"},
    {"terrain", "file", "\"\"", "a NetCDF file (CF, x and y in metres) with terrain.shape = \"file\"",
     "the user's terrain h(x, y), bilinear between its points; it must cover the domain"},
    {"terrain", "variable", "\"h\"", "the name of a variable of terrain.file of dimensions (y, x) or (x)",
     "the variable of terrain.file that holds h [m]"},
    {"dg", "order", "4", "an integer in 1..8",
     "polynomial order N of the Lagrange basis on (N+1)^3 LGL nodes per element"},
    {"dg", "volume_flux", "\"kennedy_gruber\"", "one of \"standard\", \"kennedy_gruber\"",
     "volume integral: standard DGSEM, or split form with the Kennedy-Gruber flux"},
    {"dg", "kernel_layout", "\"auto\"", "one of \"auto\", \"packs\", \"elements\", \"nodes\", \"teams\"",
     "how the element kernels run (the same bits): auto picks packs on CPUs, nodes on GPUs"},
    {"physics", "viscosity", "0.0", "a finite number >= 0 (m^2/s)",
     "constant kinematic viscosity nu; 0 solves the Euler equations (no viscous terms)"},
    {"physics", "prandtl", "0.71", "a number > 0",
     "Prandtl number nu / kappa (thermal diffusivity kappa = nu / Pr)"},
    {"physics", "heat_diffusion", "\"potential_temperature\"", "one of \"potential_temperature\", \"temperature\"",
     "heat flux down the gradient of theta (atmospheric convention) or of T (classical Navier-Stokes)"},
    {"physics", "closure", "\"constant\"", "one of \"constant\", \"smagorinsky\", \"vreman\"",
     "subgrid model adding an eddy viscosity to physics.viscosity"},
    {"physics", "smagorinsky_cs", "0.17", "a number in (0, 1]",
     "Smagorinsky constant C_s (Vreman uses c = 2.5 C_s^2)"},
    {"physics", "turbulent_prandtl", "0.3333333333333333", "a number > 0",
     "turbulent Prandtl number Pr_t = nu_t / kappa_t (also in Smagorinsky's buoyancy correction)"},
    {"physics", "cloud_stratification", "\"saturated\"", "\"saturated\" or \"interior\"",
     "moist air: the N^2 of Smagorinsky's buoyancy correction at cloudy nodes, saturated everywhere, or only where "
     "all nodes of the node's element column are cloudy (unsaturated at a cloud's edge, e.g. a capping inversion)"},
    {"physics", "tracers", "[]", "a list of distinct names (letters, digits, _; starting with a letter), at most SQUALL_MAX_TRACERS",
     "passive tracers carried by the flow: mixing ratios advected, diffused with the viscous terms, in fields, profiles and ledger"},
    {"physics", "schmidt", "1.0", "a number > 0",
     "Schmidt number of the tracers nu / D (molecular diffusivity D = physics.viscosity / Sc)"},
    {"physics", "turbulent_schmidt", "0.3333333333333333", "a number > 0",
     "turbulent Schmidt number Sc_t = nu_t / D_t of the tracers"},
    {"physics", "sponge_height", "0.0", "a finite number >= 0 (m above the bottom of the domain)",
     "Rayleigh sponge layer from this height to the top; 0: no sponge"},
    {"physics", "sponge_strength", "0.0", "a finite number >= 0 (1/s)",
     "relaxation rate of the sponge at the top of the domain"},
    {"physics", "sponge_exponent", "2.0", "a number in [1, 10]",
     "p in alpha = strength sin^p(pi/2 (z - z_s)/(z_top - z_s))"},
    {"physics", "sponge_velocity", "[0.0, 0.0, 0.0]", "three finite numbers (m/s)",
     "velocity the sponge relaxes to"},
    {"physics", "sponge_side_widths", "[0.0, 0.0]",
     "two finite numbers >= 0 (m), each at most half the span of its direction (mesh.domain)",
     "widths of the lateral sponge layers at both ends of x and of y; 0: none"},
  };
  static const std::vector<KeySpec> after_boundary{
    {"forcing", "coriolis", "0.0", "a finite number (1/s)",
     "Coriolis parameter f of an f-plane, with the geostrophic wind of geostrophic_u/v (0: off)"},
    {"forcing", "geostrophic_u", "[]", profile_expected,
     "geostrophic wind u_g(z) [m/s], (height above the bottom [m], value) break points"},
    {"forcing", "geostrophic_v", "[]", profile_expected, "geostrophic wind v_g(z) [m/s], break points"},
    {"forcing", "subsidence", "[]", profile_expected,
     "large-scale vertical velocity w_s(z) [m/s] acting as -w_s d/dz on the energy (h_tot) and q_t"},
    {"forcing", "theta_tendency", "[]", profile_expected,
     "prescribed tendency of theta_l [K/s] (radiative cooling: negative), applied as enthalpy"},
    {"forcing", "qt_tendency", "[]", profile_expected,
     "moist cases: prescribed tendency of q_t [1/s] (large-scale moisture advection)"},
    {"forcing", "geostrophic_sponge", "false", "true or false",
     "the sponge of physics.sponge_* relaxes u, v to the geostrophic wind and w to 0"},
    {"radiation", "scheme", "\"none\"", "\"none\" or \"dycoms\"",
     "\"dycoms\": the longwave flux of DYCOMS-II (Stevens et al. 2005) from the liquid water above and below (moist cases)"},
    {"radiation", "flux_top", "70.0", "a finite number (W/m2)",
     "F_0: the flux F_0 exp(-kappa LWP above) of the cloud-top cooling"},
    {"radiation", "flux_base", "22.0", "a finite number (W/m2)",
     "F_1: the flux F_1 exp(-kappa LWP below) of the cloud-base warming"},
    {"radiation", "absorption", "85.0", "a finite number > 0 (m2/kg)", "kappa: the liquid water's absorption coefficient"},
    {"radiation", "alpha_z", "1.0", "a finite number >= 0 (m^-4/3)",
     "alpha_z of the free troposphere's term rho_i c_p D alpha_z ((z - z_i)^4/3 / 4 + z_i (z - z_i)^1/3)"},
    {"radiation", "inversion_density", "1.13", "a finite number > 0 (kg/m3)", "rho_i: the density at the inversion"},
    {"radiation", "divergence", "3.75e-6", "a finite number >= 0 (1/s)",
     "D: the large-scale divergence of the free troposphere's term (forcing.subsidence gives w_s = -D z separately)"},
    {"radiation", "inversion_height", "840.0", "a finite number >= 0 (m above the bottom)",
     "z_i: the inversion height, fixed (and where inversion_qt finds none in a column)"},
    {"radiation", "inversion_qt", "0.0", "a number in [0, 1) (kg/kg)",
     "> 0: z_i per column, the height of the highest node with q_t >= this (DYCOMS: 0.008); 0: fixed"},
    {"surface", "heat_flux", "0.0", "a finite number (K m/s)",
     "surface_flux walls: kinematic sensible heat flux w'theta' into the domain"},
    {"surface", "water_flux", "0.0", "a finite number (m/s)",
     "surface_flux walls (moist cases): kinematic water flux w'q_t' into the domain"},
    {"surface", "friction_velocity", "0.0", "a finite number >= 0 (m/s)",
     "surface_flux walls: drag rho u*^2 along the wind at the wall (0: from drag_coefficient)"},
    {"surface", "drag_coefficient", "0.0", "a finite number >= 0",
     "surface_flux and bulk_aerodynamic walls: drag rho C_d |u| u along the wind at the wall"},
    {"surface", "heat_transfer", "0.0", "a finite number >= 0",
     "bulk_aerodynamic walls: C_h in w'theta' = C_h |u| (theta_s - theta)"},
    {"surface", "moisture_transfer", "0.0", "a finite number >= 0",
     "bulk_aerodynamic walls (moist cases): C_q in w'q_t' = C_q |u| (q_s(T_s, p) - q_t)"},
    {"surface", "temperature", "0.0", "a finite number > 0 (K) for bulk_aerodynamic walls, else 0",
     "bulk_aerodynamic walls: surface (sea) temperature T_s"},
    {"time", "end_time", "1000.0", "a finite number >= 0 (seconds)",
     "simulated time at which the run ends [s]"},
    {"time", "max_steps", "0", "an integer >= 0",
     "stop after this many time steps even before end_time (0: no limit)"},
    {"time", "warmup_steps", "0", "an integer >= 0",
     "steps left out of wall_seconds, pid_seconds and the phase timers (benchmarks)"},
    {"time", "cfl", "0.3", "a number in (0, 10]",
     "Courant number: dt = cfl * min node spacing / max(|u| + c)"},
    {"time", "dt", "0.0", "a finite number >= 0 (seconds)",
     "fixed time step [s]; 0: from time.cfl at every step"},
    {"time", "integrator", "\"lsrk54\"", "one of \"lsrk54\", \"lsrk144\", \"ssprk33\"",
     "time integrator: lsrk54 (Carpenter-Kennedy 4th order, 5 stages), lsrk144 (Niegemann-Diehl-Busch "
     "4th order, 14 stages) or ssprk33"},
    {"output", "dir", "\"\"", "a path (empty: output/<case.name>)",
     "output directory; --output overrides it"},
    {"output", "interval", "0.0", "a finite number >= 0 (seconds)",
     "simulated time between field outputs (0: only at the end)"},
    {"output", "profiles_interval", "0.0", "a finite number >= 0 (seconds)",
     "simulated time between samples of profiles.nc, each with a diagnostics.csv row (0: with every field output)"},
    {"output", "profiles_mean_window", "[]", "[] or two finite numbers [t0, t1] with 0 <= t0 < t1 (seconds)",
     "time window whose mean profiles the run writes to profiles_mean.nc at its end ([]: none)"},
    {"output", "checkpoint_interval", "0.0", "a finite number >= 0 (seconds)",
     "simulated time between checkpoints (0: none on this schedule); one is always written at the end"},
    {"output", "checkpoint_steps", "0", "an integer >= 0",
     "time steps between checkpoints (0: none on this schedule)"},
    {"output", "start_date", "\"2000-01-01 00:00:00\"", "a date \"YYYY-MM-DD\" or \"YYYY-MM-DD HH:MM:SS\" (UTC)",
     "date and time of t = 0: the output's time coordinates are in \"seconds since\" it (CF), which xarray "
     "decodes to dates"},
    {"output", "checkpoint_keep", "3", "an integer in 1..1000",
     "number of newest checkpoints kept in the output directory; older ones are deleted"},
  };
  // clang-format on
  std::vector<KeySpec> k{keys.front()};  // case.name, then the cases' own keys
  for (const auto& c : case_keys()) k.push_back(c);
  for (std::size_t i = 1; i < keys.size(); ++i) k.push_back(keys[i]);
  for (const auto& b : boundary_keys()) k.push_back(b);
  for (const auto& a : after_boundary) k.push_back(a);
  return k;
}

std::vector<KeySpec>& current() {
  static std::vector<KeySpec> all = catalogue();
  return all;
}

}  // namespace

const std::vector<KeySpec>& config_keys() { return current(); }

void register_case_keys(const std::vector<KeySpec>& keys) {
  for (const auto& k : keys) {
    bool known = false;
    for (const auto& c : case_keys()) known |= std::string(c.name) == k.name && std::string(c.owner) == k.owner;
    if (!known) case_keys().push_back(k);
  }
  current() = catalogue();
}

std::string full_name(const KeySpec& key) {
  return std::string(key.section) + "." + key.name;
}

std::string describe_config_keys() {
  std::string out;
  for (const auto& section : config_sections()) {
    out += "[" + section + "]\n";
    bool any = false;
    for (const auto& key : config_keys()) {
      if (section != key.section) continue;
      any = true;
      char line[512];
      std::snprintf(line, sizeof line, "  %-18s = %-46s # %s\n", full_name(key).c_str(),
                    key.default_toml, key.description);
      out += line;
    }
    if (!any) out += "  (no keys yet)\n";
  }
  return out;
}

}  // namespace squall::io
