#pragma once
/// Small fixed-size vectors of reals for pointwise states, fluxes and gradients.
/// Trivially copyable; usable in kernels. Which variables a state holds is the equation
/// set's business (physics/dry_air.hpp).
#include "core/types.hpp"

namespace squall::physics {

/// A vector of n reals (conservative state, flux, ...).
template <int n>
struct Vec {
  Real v[n];
  KOKKOS_INLINE_FUNCTION Real& operator[](int i) { return v[i]; }
  KOKKOS_INLINE_FUNCTION const Real& operator[](int i) const { return v[i]; }
};
/// The empty vector (no tracers' gradients, ...): never indexed.
template <>
struct Vec<0> {
  KOKKOS_INLINE_FUNCTION Real operator[](int) const { return 0; }
};

}  // namespace squall::physics
