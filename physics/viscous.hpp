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
inline constexpr int ngrad = 5;
KOKKOS_INLINE_FUNCTION Vec<ngrad> gradient_variables(const Prim& w) {
  return {{w.u[0], w.u[1], w.u[2], w.T, w.T / exner(w.p)}};
}

/// Viscous stress tau_ij = rho nu (du_i/dx_j + du_j/dx_i - 2/3 delta_ij div u).
KOKKOS_INLINE_FUNCTION Real stress(const Prim& w, const Gradients& g, Real nu, int i, int j) {
  const Real divergence = g.du[0][0] + g.du[1][1] + g.du[2][2];
  return w.rho * nu * (g.du[i][j] + g.du[j][i] - (i == j ? Real(2) / 3 * divergence : Real(0)));
}

/// Viscous flux in direction d; `kappa` is the thermal diffusivity [m^2 s^-1].
KOKKOS_INLINE_FUNCTION Cons viscous_flux(const Prim& w, const Gradients& g, Real nu, Real kappa, int d,
                                         bool theta_diffusion = false) {
  Cons f;
  f[i_rho] = 0;
  Real work = 0;
  for (int i = 0; i < 3; ++i) {
    const Real t = stress(w, g, nu, i, d);
    f[i_rhou + i] = t;
    work += w.u[i] * t;
  }
  const Real heat_gradient = theta_diffusion ? exner(w.p) * g.dtheta[d] : g.dT[d];
  f[i_rhoe] = work + w.rho * cp_d * kappa * heat_gradient;
  return f;
}

/// Free-slip wall normal to d seen by the gradient lifting: the wall value of the
/// normal velocity is zero, of everything else the interior value (the mean of the state
/// and its mirror). Returns g* - g.
KOKKOS_INLINE_FUNCTION Vec<ngrad> free_slip_gradient_jump(const Vec<ngrad>& g, int d) {
  Vec<ngrad> jump{{0, 0, 0, 0, 0}};
  jump[d] = -g[d];
  return jump;
}

}  // namespace squall::physics
