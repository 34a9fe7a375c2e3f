#pragma once
/// Rayleigh damping layers (Durran & Klemp 1983, Mon. Wea. Rev. 111, 2341-2361): near the
/// top of the domain and, optionally, along its lateral ends, the momentum relaxes to a
/// reference velocity,
///   S_rhou = -alpha(x) (rho u - rho u_ref),
///   alpha = strength sin^p(pi/2 s),  s = max(s_top, s_x, s_y),
/// with s_top = (z - z_s) / (z_top - z_s) above z_s (0 below) and s_x = (w_x - d_x) / w_x
/// within the distance w_x of either x end (d_x the distance to the nearer end; 0 farther
/// in), s_y alike. The lateral layers let waves leave a periodic domain through which a
/// mean wind blows (mountain waves): the flow re-entering at one end is relaxed to u_ref.
/// It acts on momentum only, so total energy is conserved (the kinetic energy it removes
/// stays as internal energy) and the conservation ledger needs no source term.
#include "core/math.hpp"

namespace squall::physics {

struct Sponge {
  Real z_start;   ///< height where the top layer begins [m]; z_top or above: no top layer
  Real z_top;     ///< top of the domain [m]
  Real strength;  ///< alpha where s = 1 [1/s]
  Real exponent;  ///< p
  Real u_ref[3];  ///< reference velocity [m/s]
  Real side_width[2] = {0, 0};  ///< widths w_x, w_y of the lateral layers [m]; 0: none
  Real side_low[2] = {0, 0};    ///< the low ends of x and y [m]
  Real side_high[2] = {0, 0};   ///< the high ends [m]

  /// alpha of the top layer alone, at height z.
  KOKKOS_INLINE_FUNCTION Real coefficient(Real z) const {
    if (!(z > z_start)) return 0;
    const Real s = math::sin(Real(M_PI) / 2 * (z - z_start) / (z_top - z_start));
    return strength * math::pow(s, exponent);
  }

  /// alpha of all the layers at the point x; without lateral layers, bitwise
  /// coefficient(x[2]) (the larger of the sines' arguments, each in [0, pi/2]).
  KOKKOS_INLINE_FUNCTION Real coefficient(const Real* x) const {
    Real angle = z_top > z_start && x[2] > z_start ? Real(M_PI) / 2 * (x[2] - z_start) / (z_top - z_start) : Real(0);
    for (int d = 0; d < 2; ++d) {
      if (!(side_width[d] > 0)) continue;
      const Real distance = math::min(x[d] - side_low[d], side_high[d] - x[d]);
      if (distance < side_width[d])
        angle = math::max(angle, Real(M_PI) / 2 * (side_width[d] - distance) / side_width[d]);
    }
    if (!(angle > 0)) return 0;
    return strength * math::pow(math::sin(angle), exponent);
  }
};

}  // namespace squall::physics
