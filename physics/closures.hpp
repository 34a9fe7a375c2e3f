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
template <class G, class S = std::decay_t<decltype(G::du[0][0])>>
KOKKOS_INLINE_FUNCTION S strain_rate(const G& g) {
  S s2 = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const S s = 0.5 * (g.du[i][j] + g.du[j][i]);
      s2 += s * s;
    }
  return math::sqrt(2 * s2);
}

/// No subgrid model: the constant molecular viscosity alone.
struct ConstantViscosity {
  Real prandtl_t = 1;
  /// The model of an element (no effect here).
  template <class S>
  KOKKOS_INLINE_FUNCTION ConstantViscosity at_element(const S&, const S&) const { return *this; }
  template <class Eq, class P, class G, class S = scalar_of<P>, class Edge = bool>
  KOKKOS_INLINE_FUNCTION S nu_t(const Eq&, const P&, const nondeduced<S>&, const G&, const Edge& = false) const {
    return S(0);
  }
};

/// Smagorinsky-Lilly with the buoyancy correction of Lilly (1962), Tellus 14, 148-172:
///   nu_t = (C_s Delta)^2 |S| sqrt(max(0, 1 - Ri / Pr_t)),  Ri = N^2 / |S|^2,
/// N^2 from the equation set: (g / theta) d theta / dz for dry air, the moist form of
/// theta_rho (unsaturated or saturated) for moist air (buoyancy_frequency_squared).
/// S: Real, or a Pack of several elements' (C_s Delta)^2 (at_element of packs).
template <class S = Real>
struct BasicSmagorinsky {
  S cs_delta_2;  ///< (C_s Delta)^2 [m^2]
  Real prandtl_t;
  Real gravity;
  /// The model of an element with filter width delta [m] and model_constant C_s^2:
  /// (C_s^2 delta) delta.
  template <class T>
  KOKKOS_INLINE_FUNCTION BasicSmagorinsky<T> at_element(const T& delta, const T& cs_2) const {
    return BasicSmagorinsky<T>{cs_2 * delta * delta, prandtl_t, gravity};
  }
  /// `cloud_edge`: N^2 in the unsaturated form also at a cloudy node (buoyancy_frequency_squared).
  /// On packs the branches are lane-wise selections of the same values, and a moist
  /// pack's `cloud_edge` is a Mask of its lanes.
  template <class Eq, class P, class G, class Edge = bool>
  KOKKOS_INLINE_FUNCTION S nu_t(const Eq& eq, const P& w, const nondeduced<S>& exner_p, const G& g,
                                const Edge& cloud_edge = false) const {
    const S s = strain_rate(g);
    if constexpr (!is_pack<S>::value)
      if (!(s > 0)) return 0;
    const S n2 = eq.buoyancy_frequency_squared(w, exner_p, g, gravity, cloud_edge);
    const S f = 1 - n2 / (s * s) / prandtl_t;
    if constexpr (is_pack<S>::value)
      return select((s > 0) & (f > 0), cs_delta_2 * s * math::sqrt(f), S(0));
    else
      return f > 0 ? cs_delta_2 * s * math::sqrt(f) : Real(0);
  }
};
using Smagorinsky = BasicSmagorinsky<>;

/// Vreman (2004), Phys. Fluids 16, 3670-3681, eq. (5)-(8):
///   alpha_ij = du_j/dx_i, beta_ij = Delta^2 alpha_mi alpha_mj,
///   B = b11 b22 - b12^2 + b11 b33 - b13^2 + b22 b33 - b23^2,
///   nu_t = c sqrt(B / (alpha_ij alpha_ij)),  c = 2.5 C_s^2.
/// It vanishes in pure shear and in solid-body rotation.
template <class S = Real>
struct BasicVreman {
  S c;
  S delta_2;  ///< Delta^2 [m^2]
  Real prandtl_t;
  /// The model of an element with filter width delta [m] and model_constant c.
  template <class T>
  KOKKOS_INLINE_FUNCTION BasicVreman<T> at_element(const T& delta, const T& c_of_element) const {
    return BasicVreman<T>{c_of_element, delta * delta, prandtl_t};
  }
  template <class Eq, class P, class G, class Edge = bool>
  KOKKOS_INLINE_FUNCTION S nu_t(const Eq&, const P&, const nondeduced<S>&, const G& g, const Edge& = false) const {
    S a[3][3], aa = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a[i][j] = g.du[j][i], aa += a[i][j] * a[i][j];
    if constexpr (!is_pack<S>::value)
      if (!(aa > 0)) return 0;
    S b[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) b[i][j] = delta_2 * (a[0][i] * a[0][j] + a[1][i] * a[1][j] + a[2][i] * a[2][j]);
    const S B = b[0][0] * b[1][1] - b[0][1] * b[0][1] + b[0][0] * b[2][2] - b[0][2] * b[0][2] +
                b[1][1] * b[2][2] - b[1][2] * b[1][2];
    if constexpr (is_pack<S>::value)
      return select((aa > 0) & (B > 0), c * math::sqrt(B / aa), S(0));
    else
      return B > 0 ? c * math::sqrt(B / aa) : Real(0);
  }
};
using Vreman = BasicVreman<>;

}  // namespace squall::physics
