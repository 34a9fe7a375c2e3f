#pragma once
/// The validated run configuration: plain typed values, one struct per TOML section.
/// Filled by io/config_reader (which owns parsing, defaults and validation); read by
/// everything else. Defaults and descriptions live in io/config_keys.cpp alone: the
/// members here are zero until the reader fills them.
#include <array>
#include <map>
#include <string>
#include <vector>

namespace squall {

struct CaseConfig {
  std::string name;
  /// The case's own keys (registered by the case, documented by `squall check
  /// --list-keys`), case.<key> = number, defaults filled in.
  std::map<std::string, double> numbers;
};

struct MeshConfig {
  std::array<int, 3> elements{};
  std::array<std::array<double, 2>, 3> domain{};
  std::array<bool, 3> periodic{};
  /// Heights of the element faces along z, bottom to top (nz + 1 values, the first and
  /// last the domain's); empty: equal element heights.
  std::vector<double> z_faces;
  /// Amplitude of the periodic test warp of the whole brick (mesh.warp); 0: none.
  double warp = 0;
};

/// [terrain]: the surface the mesh follows (shape "flat": none).
struct TerrainConfig {
  std::string shape;     ///< "flat", "agnesi", "schar", "bell" or "file"
  double height = 0, half_width = 0, wavelength = 0, x_center = 0, y_center = 0;
  std::string decay;     ///< "linear" or "smooth"
  double decay_scale = 0;
  std::string file, variable;
  bool active() const { return !shape.empty() && shape != "flat"; }
};

struct DgConfig {
  int order = 0;
  std::string volume_flux;  ///< "standard" or "kennedy_gruber"
  std::string kernel_layout;  ///< "auto", "packs", "elements", "nodes" or "teams" (dg::KernelLayout)
};

struct PhysicsConfig {
  double viscosity = 0;  ///< kinematic viscosity nu [m^2/s]; 0: Euler
  double prandtl = 0;
  std::string closure;            ///< "constant", "smagorinsky" or "vreman"
  std::string heat_diffusion;     ///< "potential_temperature" or "temperature"
  double smagorinsky_cs = 0;
  double turbulent_prandtl = 0;
  std::string cloud_stratification;  ///< "saturated" or "interior" (Smagorinsky's N^2 in cloud)
  std::vector<std::string> tracers;  ///< names of the passive tracers (empty: none)
  double schmidt = 0;                ///< tracers' Schmidt number nu / D
  double turbulent_schmidt = 0;      ///< nu_t / D_t
  double sponge_height = 0;     ///< where the sponge starts [m above the bottom]; 0: none
  double sponge_strength = 0;   ///< [1/s] at the top
  double sponge_exponent = 0;
  std::array<double, 3> sponge_velocity{};  ///< reference velocity [m/s]
  std::array<double, 2> sponge_side_widths{};  ///< lateral layers along x, y [m]; 0: none
};

/// The six walls, numbered like element faces: x_low, x_high, y_low, y_high, z_low,
/// z_high. Only walls of directions that are not periodic are used.
inline constexpr const char* wall_names[6] = {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"};

struct BoundaryConfig {
  /// a name of physics/wall_kinds.hpp ("free_slip", "no_slip_adiabatic", ...), per wall
  std::array<std::string, 6> kind{};
  std::array<double, 6> temperature{};  ///< wall temperature [K] of isothermal walls
};

/// [surface]: the fluxes of surface_flux walls and the coefficients of bulk_aerodynamic
/// ones (physics/surface_fluxes.hpp); all zero unless a wall is of one of these kinds.
struct SurfaceConfig {
  double heat_flux = 0;          ///< w'theta' [K m/s]
  double water_flux = 0;         ///< w'q_t' [m/s]
  double friction_velocity = 0;  ///< u* [m/s]
  double drag_coefficient = 0;   ///< C_d
  double heat_transfer = 0;      ///< C_h
  double moisture_transfer = 0;  ///< C_q
  double temperature = 0;        ///< T_s [K]
};

/// [forcing]: the large-scale forcing (physics/large_scale_forcing.hpp). A profile is a
/// list of (height above the bottom [m], value) break points, ascending in height;
/// empty: off.
struct ForcingConfig {
  using Profile = std::vector<std::array<double, 2>>;
  double coriolis = 0;  ///< f [1/s]
  Profile geostrophic_u, geostrophic_v, subsidence, theta_tendency, qt_tendency;
  bool geostrophic_sponge = false;
};

/// [radiation]: a parametrised radiation scheme (physics/radiation.hpp).
struct RadiationConfig {
  std::string scheme;              ///< "none" or "dycoms"
  double flux_top = 0;             ///< F_0 [W/m2]
  double flux_base = 0;            ///< F_1 [W/m2]
  double absorption = 0;           ///< kappa [m2/kg]
  double alpha_z = 0;              ///< [m^(-4/3)]
  double inversion_density = 0;    ///< rho_i [kg/m3]
  double divergence = 0;           ///< D [1/s]
  double inversion_height = 0;     ///< z_i [m] above the bottom
  double inversion_qt = 0;         ///< > 0: z_i per column where q_t falls below this [kg/kg]
};

struct TimeConfig {
  double end_time = 0;
  long max_steps = 0;
  long warmup_steps = 0;  ///< steps left out of the timings
  double cfl = 0;
  double dt = 0;  ///< fixed time step; 0: from cfl
  std::string integrator;
};

struct OutputConfig {
  std::string dir;
  double interval = 0;
  double checkpoint_interval = 0;  ///< simulated seconds between checkpoints (0: off)
  long checkpoint_steps = 0;       ///< steps between checkpoints (0: off)
  int checkpoint_keep = 0;         ///< newest checkpoints kept
  double profiles_interval = 0;    ///< simulated seconds between profiles (0: with field outputs)
  std::vector<double> profiles_mean_window;  ///< [t0, t1] of profiles_mean.nc (empty: none)
  std::string start_date;  ///< "YYYY-MM-DD HH:MM:SS" (UTC) of t = 0, for the CF time units
};

struct Config {
  std::string source;  ///< file the config came from, for messages
  std::string text;    ///< the file's text as read and the --set overrides as comments (kept in checkpoints)
  CaseConfig case_;
  MeshConfig mesh;
  TerrainConfig terrain;
  DgConfig dg;
  PhysicsConfig physics;
  BoundaryConfig boundary;
  SurfaceConfig surface;
  ForcingConfig forcing;
  RadiationConfig radiation;
  TimeConfig time;
  OutputConfig output;
};

}  // namespace squall
