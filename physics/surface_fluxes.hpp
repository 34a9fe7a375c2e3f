#pragma once
/// Surface fluxes as a wall boundary condition: the wall is impenetrable (as a free-slip
/// one), and through it pass prescribed turbulent fluxes instead of a resolved stress
/// and heat flux, as in LES intercomparisons over the sea (BOMEX, DYCOMS-II):
///  - sensible heat: rho c_pm Pi(p) w'theta' (w'theta' [K m/s] prescribed, or in bulk
///    form C_h |u_t| (theta_s - theta), theta_s = T_s / Pi(p));
///  - water (moist air): rho w'q_t' (prescribed, or C_q |u_t| (q_s - q_t), q_s the
///    saturation specific humidity at the surface temperature T_s and the node's
///    pressure), with the enthalpy it carries relative to dry air, (h_v - h_d) rho w'q_t',
///    as the diffusion of water in the interior does;
///  - momentum: a drag along the tangential velocity u_t at the wall node, of magnitude
///    rho u*^2 (friction velocity u*) or rho C_d |u_t|^2 (drag coefficient C_d).
/// All at the wall's own node (the lowest node of the column, at the surface), in the
/// direction into the domain. The drag does no work in the energy equation: like the
/// sponge's, the kinetic energy it removes stays in the air as heat (the dissipation of
/// the unresolved surface layer), so the energy that crosses the wall is the heat and
/// water fluxes alone. A flux is an exact pointwise function of the node's state, so the
/// conservation ledger books it like any flux through a wall (F* - F_v*).
#include "physics/dry_air.hpp"

namespace squall::physics {

/// The config's [surface] numbers; which of them act depends on the wall kind
/// (surface_flux: the prescribed fluxes; bulk_aerodynamic: the transfer coefficients).
struct SurfaceParameters {
  Real heat_flux = 0;          ///< w'theta' [K m s^-1] (surface_flux)
  Real water_flux = 0;         ///< w'q_t' [m s^-1] (surface_flux, moist air)
  Real friction_velocity = 0;  ///< u* [m s^-1] (surface_flux; 0: drag_coefficient)
  Real drag_coefficient = 0;   ///< C_d (either kind)
  Real heat_transfer = 0;      ///< C_h (bulk_aerodynamic)
  Real moisture_transfer = 0;  ///< C_q (bulk_aerodynamic)
  Real temperature = 0;        ///< T_s, the surface (sea) temperature [K] (bulk_aerodynamic)
};

/// The fluxes into the domain at one surface node: per unit area and time, of momentum
/// (tangential, a vector), of heat (sensible, W m^-2) and of water (kg m^-2 s^-1).
struct SurfaceExchange {
  Real momentum[3];
  Real sensible;
  Real water;
};

/// The tangential velocity u - (u.e_d) e_d at a wall normal to d, and its magnitude.
KOKKOS_INLINE_FUNCTION Real tangential_velocity(const Real* u, int d, Real* ut) {
  for (int i = 0; i < 3; ++i) ut[i] = i == d ? Real(0) : u[i];
  return math::sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]);
}
/// The same at a curved wall of unit normal n (terrain): u - (u.n) n.
KOKKOS_INLINE_FUNCTION Real tangential_velocity(const Real* u, const VectorNormal& n, Real* ut) {
  const Real normal = normal_component(u, n);
  for (int i = 0; i < 3; ++i) ut[i] = u[i] - normal * n.n[i];
  return math::sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]);
}

/// The fluxes of either kind (bulk: the transfer-coefficient form) at a node with
/// primitive variables w of equation set Eq, on a wall normal to d (a direction of the
/// brick, or a curved wall's unit normal, VectorNormal: the drag is then along the
/// velocity tangential to the terrain).
template <class Eq, class Normal>
KOKKOS_INLINE_FUNCTION SurfaceExchange surface_exchange(const Eq& eq, const SurfaceParameters& s, bool bulk,
                                                        const typename Eq::Prim& w, const Normal& d) {
  SurfaceExchange x{};
  Real ut[3];
  const Real speed = tangential_velocity(w.u, d, ut);
  // Drag: rho u*^2 u_t / |u_t| or rho C_d |u_t| u_t, against the wind.
  Real drag = 0;
  if (speed > 0) drag = s.friction_velocity > 0 ? w.rho * s.friction_velocity * s.friction_velocity / speed
                                               : w.rho * s.drag_coefficient * speed;
  for (int i = 0; i < 3; ++i) x.momentum[i] = -drag * ut[i];
  const Real pi = eq.exner(w.p);
  Real cp = eq.gas.cp_d;
  if constexpr (Eq::moist) cp = eq.thermo.cp(w.partition());
  // w'theta' and w'q_t'.
  Real heat = s.heat_flux, water = s.water_flux;
  if (bulk) {
    heat = s.heat_transfer * speed * (s.temperature - w.T) / pi;
    water = 0;
    if constexpr (Eq::moist) {
      // Saturated air at T_s with no condensate: q_s = r_s / (1 + r_s), r_s = eps p_v* / (p - p_v*).
      const Real r_s = eq.thermo.q_vap_saturation_from_pressure(s.temperature, w.p, 0, 1);
      water = s.moisture_transfer * speed * (r_s / (1 + r_s) - w.q_t);
    }
  }
  x.sensible = w.rho * cp * pi * heat;
  x.water = 0;
  if constexpr (Eq::moist) x.water = w.rho * water;
  return x;
}

}  // namespace squall::physics
