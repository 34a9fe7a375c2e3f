#pragma once
/// Dry ideal-gas thermodynamics, pointwise.
#include "core/math.hpp"
#include "physics/constants.hpp"

namespace squall::physics {

/// Pressure of an ideal gas, p = rho R_d T.
KOKKOS_INLINE_FUNCTION Real pressure(Real rho, Real T) { return rho * R_d * T; }

/// Specific internal energy, e_int = c_v (T - T_0).
KOKKOS_INLINE_FUNCTION Real internal_energy(Real T) { return cv_d * (T - T_0); }

/// Temperature from specific internal energy, T = T_0 + e_int / c_v.
KOKKOS_INLINE_FUNCTION Real temperature(Real e_int) { return T_0 + e_int / cv_d; }

/// Speed of sound, c = sqrt(gamma R_d T).
KOKKOS_INLINE_FUNCTION Real sound_speed(Real T) { return math::sqrt(gamma_d * R_d * T); }

/// Exner function, Pi = (p / p_0)^(R_d / c_p).
KOKKOS_INLINE_FUNCTION Real exner(Real p) { return math::pow(p / p_0, R_d / cp_d); }

/// Potential temperature, theta = T / Pi.
KOKKOS_INLINE_FUNCTION Real potential_temperature(Real T, Real p) { return T / exner(p); }

}  // namespace squall::physics
