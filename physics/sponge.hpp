#pragma once
/// Rayleigh damping layer near the top of the domain (Durran & Klemp 1983, Mon. Wea.
/// Rev. 111, 2341-2361): the momentum relaxes to a reference velocity,
///   S_rhou = -alpha(z) (rho u - rho u_ref),
///   alpha = strength sin^p(pi/2 (z - z_s) / (z_top - z_s)) for z > z_s, 0 below.
/// It acts on momentum only, so total energy is conserved (the kinetic energy it removes
/// stays as internal energy) and the conservation ledger needs no source term.
#include "core/math.hpp"

namespace squall::physics {

struct Sponge {
  Real z_start;   ///< height where the layer begins [m]
  Real z_top;     ///< top of the domain [m]
  Real strength;  ///< alpha at the top [1/s]
  Real exponent;  ///< p
  Real u_ref[3];  ///< reference velocity [m/s]

  KOKKOS_INLINE_FUNCTION Real coefficient(Real z) const {
    if (!(z > z_start)) return 0;
    const Real s = math::sin(Real(M_PI) / 2 * (z - z_start) / (z_top - z_start));
    return strength * math::pow(s, exponent);
  }
};

}  // namespace squall::physics
