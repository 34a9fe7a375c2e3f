#pragma once
/// Pointwise state types: small fixed-size vectors of conservative variables and the
/// primitive variables derived from them. Trivially copyable; usable in kernels.
#include "core/types.hpp"

namespace squall::physics {

/// Number of conservative variables of the dry Euler / Navier-Stokes equations.
inline constexpr int nvar = 5;
/// Their order in every state array: density, momentum (x, y, z), total energy.
enum Var : int { i_rho = 0, i_rhou = 1, i_rhov = 2, i_rhow = 3, i_rhoe = 4 };

/// A vector of n reals (conservative state, flux, ...).
template <int n>
struct Vec {
  Real v[n];
  KOKKOS_INLINE_FUNCTION Real& operator[](int i) { return v[i]; }
  KOKKOS_INLINE_FUNCTION const Real& operator[](int i) const { return v[i]; }
};
using Cons = Vec<nvar>;

/// Primitive variables of one point.
struct Prim {
  Real rho;   ///< density [kg m^-3]
  Real u[3];  ///< velocity [m s^-1]
  Real p;     ///< pressure [Pa]
  Real T;     ///< temperature [K]
};

/// Per-point data that is not prognostic: the hydrostatic reference state subtracted
/// in the momentum equation, and the geopotential.
struct Aux {
  Real rho_ref;  ///< reference density [kg m^-3]
  Real p_ref;    ///< reference pressure [Pa]
  Real phi;      ///< geopotential g z [m^2 s^-2]
};
inline constexpr int naux = 3;

}  // namespace squall::physics
