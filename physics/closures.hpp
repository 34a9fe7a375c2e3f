#pragma once
/// Subgrid-scale closures: eddy viscosity nu_t from the resolved gradients at one point.
/// Each closure is a small struct with nu_t(eq, w, exner_p, g) and a turbulent Prandtl
/// number (eq the equation set, w its primitive variables and g its lifted gradients at
/// the point, exner_p = Pi(p) there, which the caller computes once per node); the
/// operator picks one at run time by instantiating its kernels for that struct, so the
/// kernels contain no branch on the closure. Filter width Delta: the geometric mean of
/// the element edges divided by N + 1 (the mean node spacing).
#include "physics/dry_air.hpp"

namespace squall::physics {

/// Strain-rate magnitude |S| = sqrt(2 S_ij S_ij), S_ij = (du_i/dx_j + du_j/dx_i) / 2.
KOKKOS_INLINE_FUNCTION Real strain_rate(const Gradients& g) {
  Real s2 = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Real s = 0.5 * (g.du[i][j] + g.du[j][i]);
      s2 += s * s;
    }
  return math::sqrt(2 * s2);
}

/// No subgrid model: the constant molecular viscosity alone.
struct ConstantViscosity {
  Real prandtl_t = 1;
  /// The model of an element (no effect here).
  KOKKOS_INLINE_FUNCTION ConstantViscosity at_element(Real, Real) const { return *this; }
  template <class Eq>
  KOKKOS_INLINE_FUNCTION Real nu_t(const Eq&, const typename Eq::Prim&, Real, const typename Eq::Gradients&,
                                   bool = false) const {
    return 0;
  }
};

/// Smagorinsky-Lilly with the buoyancy correction of Lilly (1962), Tellus 14, 148-172:
///   nu_t = (C_s Delta)^2 |S| sqrt(max(0, 1 - Ri / Pr_t)),  Ri = N^2 / |S|^2,
/// N^2 from the equation set: (g / theta) d theta / dz for dry air, the moist form of
/// theta_rho (unsaturated or saturated) for moist air (buoyancy_frequency_squared).
struct Smagorinsky {
  Real cs_delta_2;  ///< (C_s Delta)^2 [m^2]
  Real prandtl_t;
  Real gravity;
  /// The model of an element with filter width delta [m] and model_constant C_s^2:
  /// (C_s^2 delta) delta.
  KOKKOS_INLINE_FUNCTION Smagorinsky at_element(Real delta, Real cs_2) const {
    Smagorinsky m = *this;
    m.cs_delta_2 = cs_2 * delta * delta;
    return m;
  }
  template <class Eq>
  /// `cloud_edge`: N^2 in the unsaturated form also at a cloudy node (buoyancy_frequency_squared).
  KOKKOS_INLINE_FUNCTION Real nu_t(const Eq& eq, const typename Eq::Prim& w, Real exner_p,
                                   const typename Eq::Gradients& g, bool cloud_edge = false) const {
    const Real s = strain_rate(g);
    if (!(s > 0)) return 0;
    const Real n2 = eq.buoyancy_frequency_squared(w, exner_p, g, gravity, cloud_edge);
    const Real f = 1 - n2 / (s * s) / prandtl_t;
    return f > 0 ? cs_delta_2 * s * math::sqrt(f) : Real(0);
  }
};

/// Vreman (2004), Phys. Fluids 16, 3670-3681, eq. (5)-(8):
///   alpha_ij = du_j/dx_i, beta_ij = Delta^2 alpha_mi alpha_mj,
///   B = b11 b22 - b12^2 + b11 b33 - b13^2 + b22 b33 - b23^2,
///   nu_t = c sqrt(B / (alpha_ij alpha_ij)),  c = 2.5 C_s^2.
/// It vanishes in pure shear and in solid-body rotation.
struct Vreman {
  Real c;
  Real delta_2;  ///< Delta^2 [m^2]
  Real prandtl_t;
  /// The model of an element with filter width delta [m] and model_constant c.
  KOKKOS_INLINE_FUNCTION Vreman at_element(Real delta, Real c_of_element) const {
    Vreman m = *this;
    m.c = c_of_element;
    m.delta_2 = delta * delta;
    return m;
  }
  template <class Eq>
  KOKKOS_INLINE_FUNCTION Real nu_t(const Eq&, const typename Eq::Prim&, Real, const typename Eq::Gradients& g,
                                   bool = false) const {
    Real a[3][3], aa = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a[i][j] = g.du[j][i], aa += a[i][j] * a[i][j];
    if (!(aa > 0)) return 0;
    Real b[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) b[i][j] = delta_2 * (a[0][i] * a[0][j] + a[1][i] * a[1][j] + a[2][i] * a[2][j]);
    const Real B = b[0][0] * b[1][1] - b[0][1] * b[0][1] + b[0][0] * b[2][2] - b[0][2] * b[0][2] +
                   b[1][1] * b[2][2] - b[1][2] * b[1][2];
    return B > 0 ? c * math::sqrt(B / aa) : Real(0);
  }
};

}  // namespace squall::physics
