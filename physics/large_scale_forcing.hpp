#pragma once
/// Large-scale forcing of LES cases (the [forcing] keys; BOMEX, DYCOMS-II): the tendencies
/// that the intercomparisons prescribe for the resolved fields, as pointwise functions
/// of one node's state, in a total-energy model:
///  - Coriolis on an f-plane with a geostrophic wind (the large-scale pressure gradient),
///      S_rhou = f (rho v - rho v_g),  S_rhov = -f (rho u - rho u_g),
///    and, in the energy, the work they do, u . S = f rho (v u_g - u v_g) (the Coriolis
///    force itself does none);
///  - a prescribed heating rate of theta_l (radiative cooling), Q_theta [K/s]: the
///    enthalpy rho c_pm Pi(p_ref) Q_theta (heating at constant pressure; the Exner
///    function of the hydrostatic reference pressure);
///  - a prescribed tendency of q_t (large-scale moisture advection), Q_q [1/s]: rho Q_q
///    of water, which replaces dry air at the same temperature and pressure, so the
///    energy gets the enthalpy difference (h_v - h_d) rho Q_q (the same as the diffusion
///    of water carries);
///  - large-scale subsidence w_s(z) acting on the resolved fields as -w_s d(phi)/dz: for
///    q_t, -rho w_s dq_t/dz; for the energy, -rho w_s dh_tot/dz with the total specific
///    enthalpy h_tot = e + p / rho (the moist static energy and kinetic energy;
///    constant along a dry or moist adiabat, so subsidence warms as the descent of theta_l
///    does; ClimateMachine's form, Sridhar et al. 2022);
///  - a sponge that relaxes the velocity to the geostrophic wind (and w to 0) above a
///    height, with the coefficient of physics/sponge.hpp; like the plain sponge it acts
///    on momentum only.
/// Profiles of height are piecewise linear between break points and constant beyond
/// them. Mass is never changed; energy and water are, and the operator books the rates
/// in the conservation ledger.
#include "core/simd.hpp"
#include "physics/sponge.hpp"

namespace squall::physics {

/// A piecewise-linear function of height given at up to max_points break points
/// (ascending z), constant beyond the first and last; no points: zero.
struct Profile {
  static constexpr int max_points = 16;
  int points = 0;
  Real z[max_points] = {};
  Real value[max_points] = {};
  KOKKOS_INLINE_FUNCTION bool active() const { return points > 0; }
  KOKKOS_INLINE_FUNCTION Real operator()(Real height) const {
    if (points == 0) return 0;
    if (!(height > z[0])) return value[0];
    for (int i = 1; i < points; ++i)
      if (height < z[i]) {
        const Real s = (height - z[i - 1]) / (z[i] - z[i - 1]);
        return value[i - 1] + s * (value[i] - value[i - 1]);
      }
    return value[points - 1];
  }
};

struct LargeScaleForcing {
  Real coriolis = 0;        ///< f [1/s]; 0: no Coriolis and no geostrophic forcing
  Profile geostrophic[2];   ///< u_g(z), v_g(z) [m/s]
  Profile subsidence;       ///< w_s(z) [m/s] (negative: descent)
  Profile heating;          ///< Q_theta(z) [K/s]
  Profile drying;           ///< Q_q(z) [1/s]
  bool geostrophic_sponge = false;  ///< the sponge relaxes to (u_g, v_g, 0)
  Sponge sponge{};                  ///< its layer (u_ref unused)

  bool active() const {
    return coriolis != 0 || subsidence.active() || heating.active() || drying.active() || geostrophic_sponge;
  }
};

/// What the forcing needs of a node's height (and reference Exner function), formed
/// once: the kernels then need no profile lookups, powers or sines.
struct ForcingFactors {
  enum : int { heating = 0, drying = 1, subsidence = 2, u_g = 3, v_g = 4, sponge = 5, count = 6 };
};

/// The ForcingFactors of a node at height z above the bottom (absolute height
/// z_absolute, for the sponge) whose reference pressure has the Exner function exner_ref:
/// Pi_ref Q_theta, Q_q, w_s, u_g, v_g, the sponge's coefficient.
inline void forcing_factors(const LargeScaleForcing& f, Real z, Real z_absolute, Real exner_ref, Real* out) {
  out[ForcingFactors::heating] = exner_ref * f.heating(z);
  out[ForcingFactors::drying] = f.drying(z);
  out[ForcingFactors::subsidence] = f.subsidence(z);
  out[ForcingFactors::u_g] = f.geostrophic[0](z);
  out[ForcingFactors::v_g] = f.geostrophic[1](z);
  out[ForcingFactors::sponge] = f.geostrophic_sponge ? f.sponge.coefficient(z_absolute) : Real(0);
}

/// Momentum and energy tendencies of Coriolis and the geostrophic wind (u_g, v_g) at a
/// node of density rho and velocity u (adds to s[0..3): rho u, rho v, rho w, rho e).
/// S: Real, or a Pack of nodes (the same operations lane by lane).
template <class S>
KOKKOS_INLINE_FUNCTION void add_coriolis(Real f, const S& ug, const S& vg, const S& rho, const S* u, S* s) {
  s[0] += f * rho * (u[1] - vg);
  s[1] += -f * rho * (u[0] - ug);
  s[3] += f * rho * (u[1] * ug - u[0] * vg);
}

/// The geostrophic sponge's momentum tendency with coefficient alpha (adds to s[0..3)).
template <class S>
KOKKOS_INLINE_FUNCTION void add_geostrophic_sponge(const S& alpha, const S& ug, const S& vg, const S& rho, const S* u,
                                                   S* s) {
  s[0] = s[0] - alpha * rho * (u[0] - ug);
  s[1] = s[1] - alpha * rho * (u[1] - vg);
  s[2] = s[2] - alpha * rho * u[2];
}

/// Energy from a theta_l heating rate Q_theta at constant pressure: rho c_pm Pi Q_theta
/// (with Pi of the reference pressure: the perturbation pressure changes it by ~1e-5).
KOKKOS_INLINE_FUNCTION Real heating_energy(Real rho, Real cp_m, Real exner_p, Real Q_theta) {
  return rho * cp_m * exner_p * Q_theta;
}

/// Tendencies of -w_s d(phi)/dz for the energy (phi = h_tot) and the water (phi = q_t).
template <class S>
KOKKOS_INLINE_FUNCTION S subsidence_tendency(const S& rho, const nondeduced<S>& w_s, const nondeduced<S>& dphi_dz) {
  return -rho * w_s * dphi_dz;
}

}  // namespace squall::physics
