#pragma once
/// Small fixed-size vectors of reals for pointwise states, fluxes and gradients.
/// Trivially copyable; usable in kernels. Which variables a state holds is the equation
/// set's business (physics/dry_air.hpp).
#include "core/types.hpp"

namespace squall::physics {

/// A vector of n reals (conservative state, flux, ...); of n packs of reals
/// (core/simd.hpp) in the host kernels that take several elements at once.
template <int n, class S = Real>
struct Vec {
  S v[n];
  KOKKOS_INLINE_FUNCTION S& operator[](int i) { return v[i]; }
  KOKKOS_INLINE_FUNCTION const S& operator[](int i) const { return v[i]; }
};
/// The empty vector (no tracers' gradients, ...): never indexed.
template <class S>
struct Vec<0, S> {
  KOKKOS_INLINE_FUNCTION S operator[](int) const { return S(0); }
};

}  // namespace squall::physics
