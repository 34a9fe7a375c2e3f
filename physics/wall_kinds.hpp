#pragma once
/// The registry of wall boundary-condition kinds: their config names (boundary.<wall>)
/// and properties, in WallKind order. Plain data, no Kokkos, so the config reader can
/// take its choice lists from here; the pointwise types are in
/// physics/boundary_conditions.hpp.
namespace squall::physics {

enum WallKind : int {
  free_slip = 0,
  no_slip_adiabatic = 1,
  no_slip_isothermal = 2,
  surface_flux = 3,
  bulk_aerodynamic = 4
};

struct WallKindInfo {
  const char* name;
  const char* description;
  bool no_slip;          ///< acts through the viscous terms (needs viscosity or a closure)
  bool has_temperature;  ///< needs boundary.<wall>_temperature > 0
  bool surface = false;  ///< takes its fluxes from the [surface] keys
};

inline constexpr WallKindInfo wall_kinds[] = {
    {"free_slip", "free-slip (impenetrable, no stress, no heat flux)", false, false},
    {"no_slip_adiabatic", "no-slip with zero heat flux", true, false},
    {"no_slip_isothermal", "no-slip at the fixed temperature boundary.<wall>_temperature", true, true},
    {"surface_flux", "impenetrable, with the prescribed fluxes of [surface] (heat_flux, water_flux, "
     "friction_velocity or drag_coefficient)", true, false, true},
    {"bulk_aerodynamic", "impenetrable, with bulk fluxes from [surface] drag_coefficient, heat_transfer, "
     "moisture_transfer and temperature", true, false, true},
};
inline constexpr int nwall_kinds = sizeof(wall_kinds) / sizeof(wall_kinds[0]);

}  // namespace squall::physics
