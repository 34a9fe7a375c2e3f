#pragma once
/// Viscous and diffusive fluxes of the Navier-Stokes equations (DESIGN.md section 3),
/// pointwise, from the primitive state and the gradients of velocity and temperature:
///   tau = rho nu (grad u + grad u^T - 2/3 (div u) I),
///   F_v,d = (0, tau_1d, tau_2d, tau_3d, u_j tau_jd + rho c_p kappa dT/dx_d),
/// with kinematic viscosity nu and thermal diffusivity kappa = nu / Pr. The momentum
/// and energy equations read dq/dt + div(F - F_v) = S.
/// With `theta_diffusion` the heat flux is rho c_p kappa Pi d theta/dx_d instead
/// (Pi = T / theta): heat diffuses down the potential-temperature gradient, as in
/// atmospheric models (e.g. Straka et al. 1993), so an adiabatic (neutral) atmosphere
/// carries no heat flux, where diffusing T would cool it at an insulating ground.
#include "physics/euler.hpp"

namespace squall::physics {

/// Gradients at one point: du[i][j] = d u_i / d x_j, dT[j] = d T / d x_j, dtheta[j].
struct Gradients {
  Real du[3][3];
  Real dT[3];
  Real dtheta[3];
};

/// Number of variables whose gradients are lifted (u, v, w, T, theta) and their values.
/// Without `with_theta` (nothing uses grad theta: heat diffuses down grad T and no
/// closure needs the stratification) theta is left 0, which spares a pow per node.
inline constexpr int ngrad = 5;
KOKKOS_INLINE_FUNCTION Vec<ngrad> gradient_variables(const Prim& w, bool with_theta = true) {
  return {{w.u[0], w.u[1], w.u[2], w.T, with_theta ? w.T / exner(w.p) : Real(0)}};
}

/// Viscous stress tau_ij = rho nu (du_i/dx_j + du_j/dx_i - 2/3 delta_ij div u).
KOKKOS_INLINE_FUNCTION Real stress(const Prim& w, const Gradients& g, Real nu, int i, int j) {
  const Real divergence = g.du[0][0] + g.du[1][1] + g.du[2][2];
  return w.rho * nu * (g.du[i][j] + g.du[j][i] - (i == j ? Real(2) / 3 * divergence : Real(0)));
}

/// Viscous flux in direction d; `kappa` is the thermal diffusivity [m^2 s^-1] and
/// `exner_p` = Pi(p) at the point (used with theta_diffusion only), which callers that
/// form all three directions compute once.
KOKKOS_INLINE_FUNCTION Cons viscous_flux(const Prim& w, const Gradients& g, Real nu, Real kappa, int d,
                                         bool theta_diffusion, Real exner_p) {
  Cons f;
  f[i_rho] = 0;
  Real work = 0;
  for (int i = 0; i < 3; ++i) {
    const Real t = stress(w, g, nu, i, d);
    f[i_rhou + i] = t;
    work += w.u[i] * t;
  }
  const Real heat_gradient = theta_diffusion ? exner_p * g.dtheta[d] : g.dT[d];
  f[i_rhoe] = work + w.rho * cp_d * kappa * heat_gradient;
  return f;
}
KOKKOS_INLINE_FUNCTION Cons viscous_flux(const Prim& w, const Gradients& g, Real nu, Real kappa, int d,
                                         bool theta_diffusion = false) {
  return viscous_flux(w, g, nu, kappa, d, theta_diffusion, theta_diffusion ? exner(w.p) : Real(1));
}

/// Kinds of wall (DESIGN.md section 3). Walls are numbered like element faces: 2d is
/// the wall at the low end of direction d, 2d + 1 the one at the high end.
enum WallKind : int {
  free_slip = 0,           ///< impenetrable, no stress, no heat flux
  no_slip_adiabatic = 1,   ///< u = 0, no heat flux
  no_slip_isothermal = 2,  ///< u = 0, T = T_wall
};

/// The six walls of the brick (a periodic direction's entries are unused).
struct Walls {
  int kind[6] = {free_slip, free_slip, free_slip, free_slip, free_slip, free_slip};
  Real temperature[6] = {0, 0, 0, 0, 0, 0};  ///< T_wall [K] of isothermal walls
  KOKKOS_INLINE_FUNCTION bool any_no_slip() const {
    for (int w = 0; w < 6; ++w)
      if (kind[w] != free_slip) return true;
    return false;
  }
};

/// The wall values g* of the gradient variables (u, v, w, T, theta) seen by the BR1
/// lifting at `wall`, from the interior values g and pressure p at the wall node; returns
/// g* - g. Free-slip: the normal velocity is zero, everything else the interior value
/// (the mean of the state and its mirror). No-slip: every velocity component is zero.
/// Isothermal: T* = T_wall and theta* = T_wall / Pi(p). Wall states of this kind for
/// BR1-type schemes: Mengaldo et al. (2014), "A guide to the implementation of boundary
/// conditions in compact high-order methods for compressible aerodynamics", AIAA
/// 2014-2923, sec. III.
KOKKOS_INLINE_FUNCTION Vec<ngrad> wall_gradient_jump(const Vec<ngrad>& g, Real p, int wall, const Walls& walls) {
  Vec<ngrad> jump{{0, 0, 0, 0, 0}};
  const int kind = walls.kind[wall];
  if (kind == free_slip) {
    jump[wall / 2] = -g[wall / 2];
    return jump;
  }
  for (int i = 0; i < 3; ++i) jump[i] = -g[i];
  if (kind == no_slip_isothermal) {
    const Real tw = walls.temperature[wall];
    jump[3] = tw - g[3];
    jump[4] = tw / exner(p) - g[4];
  }
  return jump;
}

/// The viscous flux F_v* through `wall` (component along the wall's direction d), from
/// the interior viscous flux fv = F_v,d at the wall node and the interior velocity u.
/// Free-slip: nothing passes. No-slip: the wall takes the interior stress (BR1), and no
/// work is done since u* = 0; adiabatic walls pass no heat, isothermal ones the interior
/// heat flux, which is fv's energy component less the work u . tau.
KOKKOS_INLINE_FUNCTION Cons wall_viscous_flux(const Cons& fv, const Real u[3], int wall, const Walls& walls) {
  Cons f{};
  const int kind = walls.kind[wall];
  if (kind == free_slip) return f;
  for (int i = 0; i < 3; ++i) f[i_rhou + i] = fv[i_rhou + i];
  if (kind == no_slip_isothermal)
    f[i_rhoe] = fv[i_rhoe] - (u[0] * fv[i_rhou] + u[1] * fv[i_rhou + 1] + u[2] * fv[i_rhou + 2]);
  return f;
}

}  // namespace squall::physics
