#pragma once
/// Data layout of the DG solution, fixed here and nowhere else.
///
/// State q(e, v, n): local element e, conservative variable v, volume node
/// n = i + (N+1) (j + (N+1) k), LayoutRight, so one variable of one element is a
/// contiguous run of (N+1)^3 values: unit stride over the x index for CPU vector loops,
/// and consecutive threads on consecutive nodes coalesce on GPUs.
/// Face node m = a + (N+1) b, (a, b) the node indices along the two tangential
/// directions in increasing order (x before y before z), the same on both sides of a face.
#include "core/types.hpp"
#include "physics/dry_air.hpp"

namespace squall::dg {

/// The dry equation set (no tracers). The solver is a template of its equation set Eq:
/// the number, names and meaning of the variables of every state array come from Eq
/// and nowhere else. Code that reads only the dry variables (case diagnostics) may use
/// this one: the dry variables come first in every equation set.
using Equations = physics::DryAir<0>;

using StateView = DeviceView<Real***>;  ///< (element, variable, node)
using AuxView = DeviceView<Real***>;    ///< (element, aux variable, node): rho_ref, p_ref, phi
using CoordView = DeviceView<Real***>;  ///< (element, direction, node): node coordinates [m]

template <int N>
struct Layout {
  static constexpr int n1 = N + 1;              ///< nodes per direction
  static constexpr int nodes = n1 * n1 * n1;    ///< nodes per element
  static constexpr int face_nodes = n1 * n1;    ///< nodes per face

  KOKKOS_INLINE_FUNCTION static constexpr int node(int i, int j, int k) {
    return i + n1 * (j + n1 * k);
  }
  /// Index of volume node n along direction d.
  KOKKOS_INLINE_FUNCTION static constexpr int index(int n, int d) {
    return d == 0 ? n % n1 : d == 1 ? (n / n1) % n1 : n / (n1 * n1);
  }
  /// Volume node n with its index along d replaced by m.
  KOKKOS_INLINE_FUNCTION static constexpr int along(int n, int d, int m) {
    return d == 0 ? n - index(n, 0) + m
                  : d == 1 ? n + n1 * (m - index(n, 1)) : n + n1 * n1 * (m - index(n, 2));
  }
  /// Face node of volume node n on a face normal to d.
  KOKKOS_INLINE_FUNCTION static constexpr int face_node_of(int n, int d) {
    return d == 0 ? index(n, 1) + n1 * index(n, 2)
                  : d == 1 ? index(n, 0) + n1 * index(n, 2) : index(n, 0) + n1 * index(n, 1);
  }
  /// Volume node of face node m on the element face `local_face` (2d: low, 2d+1: high).
  KOKKOS_INLINE_FUNCTION static constexpr int volume_node_of(int m, int local_face) {
    const int d = local_face / 2, s = (local_face % 2) * N, a = m % n1, b = m / n1;
    return d == 0 ? node(s, a, b) : d == 1 ? node(a, s, b) : node(a, b, s);
  }
};

/// Reads the conservative state (of equation set Eq) of node n of element e.
template <class Eq = Equations>
KOKKOS_INLINE_FUNCTION typename Eq::Cons load(const StateView& q, int e, int n) {
  typename Eq::Cons s;
  for (int v = 0; v < Eq::nvar; ++v) s[v] = q(e, v, n);
  return s;
}

/// Reads the aux values (reference state, geopotential) of node n of element e.
KOKKOS_INLINE_FUNCTION physics::Aux load_aux(const AuxView& aux, int e, int n) {
  return {aux(e, Equations::a_rho_ref, n), aux(e, Equations::a_p_ref, n), aux(e, Equations::a_phi, n)};
}

/// The quantities DgOperator::subgrid_fluxes forms at each node: the eddy viscosity and
/// the modelled (eddy plus molecular) vertical fluxes in kinematic units, the turbulent
/// fluxes that the resolved w'phi' of profiles.nc leave out.
struct SubgridFlux {
  enum : int {
    nu_t = 0,         ///< eddy viscosity [m2 s-1]
    u_w = 1,          ///< -nu_total (du/dz + dw/dx) [m2 s-2]
    v_w = 2,          ///< -nu_total (dv/dz + dw/dy) [m2 s-2]
    w_theta = 3,      ///< the heat flux over rho c_p Pi: of theta (theta_li in moist air) [K m s-1]
    w_theta_rho = 4,  ///< the theta_rho flux it and the water flux make (= w_theta in dry air) [K m s-1]
    w_scalar = 5,     ///< then -kappa_total dq_t/dz (moist air) and -D_total dc/dz of each tracer
  };
  template <class Eq>
  static constexpr int count = w_scalar + Eq::nscalars;
};

}  // namespace squall::dg
