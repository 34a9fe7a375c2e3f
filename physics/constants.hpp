#pragma once
/// Physical constants, in one place (DESIGN.md §3). SI units.
#include "core/types.hpp"

namespace squall::physics {

/// Gas constant of dry air [J kg^-1 K^-1].
inline constexpr Real R_d = 287.0;
/// Specific heat of dry air at constant pressure [J kg^-1 K^-1].
inline constexpr Real cp_d = 1004.0;
/// Specific heat of dry air at constant volume, c_v = c_p - R [J kg^-1 K^-1].
inline constexpr Real cv_d = cp_d - R_d;
/// Ratio of specific heats, gamma = c_p / c_v.
inline constexpr Real gamma_d = cp_d / cv_d;
/// Gravitational acceleration [m s^-2].
inline constexpr Real grav = 9.81;
/// Reference pressure for potential temperature [Pa].
inline constexpr Real p_0 = 1.0e5;
/// Temperature at which internal energy is zero, e_int = c_v (T - T_0) [K]. Zero, so that
/// a positive internal energy is the same as a positive temperature.
inline constexpr Real T_0 = 0.0;

}  // namespace squall::physics
