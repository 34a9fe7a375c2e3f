#pragma once
/// Wall boundary conditions as pointwise types. Each kind is a small struct that gives,
/// at one face node of a wall normal to direction d, for any equation set Eq:
///   outer_state(eq, q, d)        the state beyond the wall, for the numerical flux (on a
///                                curved wall d is its unit normal, a VectorNormal);
///   gradient_jump(eq, g, p, d)   g* - g, the wall values of the gradient variables that
///                                the BR1 lifting sees, less the interior values (p: the
///                                pressure at the node);
///   viscous_flux(eq, fv, w)      F_v* through the wall, from the interior viscous flux
///                                fv = F_v,d at the node and its primitive variables w
///                                (on a curved wall wall_viscous_flux, below, with the
///                                node's contravariant vector: fv is then F_v . J a^d).
/// What crosses a wall (for the conservation ledger) is F* - F_v* of these. The face
/// kernels are instantiated per kind, so they contain no branch on the kind. Wall states
/// of this kind for BR1-type schemes: Mengaldo et al. (2014), "A guide to the
/// implementation of boundary conditions in compact high-order methods for compressible
/// aerodynamics", AIAA 2014-2923, sec. III.
///
/// To add a kind: a struct here, its entry in physics/wall_kinds.hpp, a case in
/// with_wall_condition.
#include "physics/dry_air.hpp"
#include "physics/surface_fluxes.hpp"
#include "physics/wall_kinds.hpp"

namespace squall::physics {

/// The mirror state of q across a wall normal to direction d: the normal momentum
/// reversed. With it, Rusanov's flux carries no mass or energy through the wall.
template <class Eq>
KOKKOS_INLINE_FUNCTION typename Eq::Cons mirror(const Eq&, const typename Eq::Cons& q, int d) {
  typename Eq::Cons m = q;
  m[Eq::i_rhou + d] = -q[Eq::i_rhou + d];
  return m;
}
/// The mirror state across a curved wall of unit normal n: rho u - 2 (rho u . n) n.
template <class Eq>
KOKKOS_INLINE_FUNCTION typename Eq::Cons mirror(const Eq&, const typename Eq::Cons& q, const VectorNormal& n) {
  typename Eq::Cons m = q;
  const Real* rho_u = &q[Eq::i_rhou];
  const Real normal = rho_u[0] * n.n[0] + rho_u[1] * n.n[1] + rho_u[2] * n.n[2];
  for (int i = 0; i < 3; ++i) m[Eq::i_rhou + i] = rho_u[i] - 2 * normal * n.n[i];
  return m;
}

/// Impenetrable, no stress, no heat flux: the normal velocity is zero at the wall,
/// everything else takes the interior value (the mean of the state and its mirror).
struct FreeSlip {
  template <class Eq, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons outer_state(const Eq& eq, const typename Eq::Cons& q,
                                                       const Normal& d) const {
    return mirror(eq, q, d);
  }
  template <class Eq>
  KOKKOS_INLINE_FUNCTION typename Eq::Grad gradient_jump(const Eq&, const typename Eq::Grad& g, Real, int d) const {
    typename Eq::Grad jump{};
    jump[d] = -g[d];
    return jump;
  }
  /// On a curved wall of unit normal n: the velocity's normal part (u . n) n jumps.
  template <class Eq>
  KOKKOS_INLINE_FUNCTION typename Eq::Grad gradient_jump(const Eq&, const typename Eq::Grad& g, Real,
                                                         const VectorNormal& n) const {
    typename Eq::Grad jump{};
    const Real normal = normal_component(&g[0], n);  // g's first three: the velocity
    for (int i = 0; i < 3; ++i) jump[i] = -normal * n.n[i];
    return jump;
  }
  template <class Eq, class P>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons viscous_flux(const Eq&, const typename Eq::Cons&, const P&) const {
    return typename Eq::Cons{};
  }
};

/// No-slip, no heat flux: u* = 0; the wall takes the interior stress (BR1), and no work
/// is done since u* = 0.
struct NoSlipAdiabatic {
  template <class Eq, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons outer_state(const Eq& eq, const typename Eq::Cons& q,
                                                       const Normal& d) const {
    return mirror(eq, q, d);
  }
  template <class Eq, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Grad gradient_jump(const Eq&, const typename Eq::Grad& g, Real,
                                                         const Normal&) const {
    typename Eq::Grad jump{};
    for (int i = 0; i < 3; ++i) jump[i] = -g[i];
    return jump;
  }
  template <class Eq, class P>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons viscous_flux(const Eq&, const typename Eq::Cons& fv, const P&) const {
    typename Eq::Cons f{};
    for (int i = 0; i < 3; ++i) f[Eq::i_rhou + i] = fv[Eq::i_rhou + i];
    return f;
  }
};

/// No-slip at a fixed temperature: u* = 0, T* = T_wall, theta* = T_wall / Pi(p); the
/// wall passes the interior heat flux, fv's energy component less the work u . tau.
struct NoSlipIsothermal {
  Real temperature;  ///< T_wall [K]
  template <class Eq, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons outer_state(const Eq& eq, const typename Eq::Cons& q,
                                                       const Normal& d) const {
    return mirror(eq, q, d);
  }
  template <class Eq, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Grad gradient_jump(const Eq& eq, const typename Eq::Grad& g, Real p,
                                                         const Normal&) const {
    typename Eq::Grad jump{};
    for (int i = 0; i < 3; ++i) jump[i] = -g[i];
    jump[Eq::g_T] = temperature - g[Eq::g_T];
    jump[Eq::g_theta] = temperature / eq.exner(p) - g[Eq::g_theta];
    return jump;
  }
  template <class Eq, class P>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons viscous_flux(const Eq&, const typename Eq::Cons& fv, const P& w) const {
    const Real* u = w.u;
    typename Eq::Cons f{};
    for (int i = 0; i < 3; ++i) f[Eq::i_rhou + i] = fv[Eq::i_rhou + i];
    f[Eq::i_rhoe] = fv[Eq::i_rhoe] - (u[0] * fv[Eq::i_rhou] + u[1] * fv[Eq::i_rhou + 1] + u[2] * fv[Eq::i_rhou + 2]);
    return f;
  }
};

/// Prescribed surface fluxes (physics/surface_fluxes.hpp), or their bulk aerodynamic
/// form: impenetrable as a free-slip wall (the lifting sees the same wall values), with
/// F_v* the fluxes into the domain. On a wall at the low end of direction d the inward
/// flux H is -F_v,d (F - F_v is the total flux along +e_d); at the high end it is +F_v,d.
struct SurfaceFlux {
  SurfaceParameters surface;
  bool bulk;   ///< bulk_aerodynamic: fluxes from the transfer coefficients and T_s
  int direction;
  Real sign;   ///< -1 at the low end, +1 at the high end
  template <class Eq, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons outer_state(const Eq& eq, const typename Eq::Cons& q,
                                                       const Normal& d) const {
    return mirror(eq, q, d);
  }
  template <class Eq, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Grad gradient_jump(const Eq& eq, const typename Eq::Grad& g, Real p,
                                                         const Normal& d) const {
    return FreeSlip{}.gradient_jump(eq, g, p, d);
  }
  template <class Eq, class P>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons viscous_flux(const Eq& eq, const typename Eq::Cons&, const P& w) const {
    return fluxes(eq, w, direction, sign);
  }
  /// The fluxes x of surface_exchange at a wall of normal d, times `scale` (the sign of
  /// the wall's end, times the surface element on a curved wall).
  template <class Eq, class P, class Normal>
  KOKKOS_INLINE_FUNCTION typename Eq::Cons fluxes(const Eq& eq, const P& w, const Normal& d, Real scale) const {
    const SurfaceExchange x = surface_exchange(eq, surface, bulk, w, d);
    typename Eq::Cons f{};
    for (int i = 0; i < 3; ++i) f[Eq::i_rhou + i] = scale * x.momentum[i];
    f[Eq::i_rhoe] = scale * x.sensible;
    if constexpr (Eq::moist) {
      f[Eq::i_rhoe] += scale * eq.water_enthalpy_excess(w.T) * x.water;
      f[Eq::i_rhoqt] = scale * x.water;
    }
    return f;
  }
};

/// F_v* through a curved wall (terrain, or a mapped top) at a node whose contravariant
/// vector is ja = J a^d, the wall's normal times its surface element; fv is the
/// interior's F_v . ja. Where F_v* is made of the interior flux (free-slip, no-slip) it
/// is formed as on a flat wall; prescribed and bulk surface fluxes are per unit area,
/// along the terrain's normal, so they are scaled by |J a^d|.
template <class Condition, class Eq, class P>
KOKKOS_INLINE_FUNCTION typename Eq::Cons wall_viscous_flux(const Condition& bc, const Eq& eq,
                                                           const typename Eq::Cons& fv, const P& w,
                                                           const VectorNormal&) {
  return bc.viscous_flux(eq, fv, w);
}
template <class Eq, class P>
KOKKOS_INLINE_FUNCTION typename Eq::Cons wall_viscous_flux(const SurfaceFlux& bc, const Eq& eq,
                                                           const typename Eq::Cons&, const P& w,
                                                           const VectorNormal& ja) {
  const Real area = math::sqrt(ja.n[0] * ja.n[0] + ja.n[1] * ja.n[1] + ja.n[2] * ja.n[2]);
  const VectorNormal n{{ja.n[0] / area, ja.n[1] / area, ja.n[2] / area}};
  return bc.fluxes(eq, w, n, bc.sign * area);
}

/// The condition at a wall of one member of a batch, whose members may each have their
/// own [surface] numbers (squall ensemble --batch): a surface-flux wall takes the
/// member's; the other conditions have none and are the same for every member.
template <class Condition>
KOKKOS_INLINE_FUNCTION Condition member_condition(const Condition& bc, const SurfaceParameters&) {
  return bc;
}
KOKKOS_INLINE_FUNCTION SurfaceFlux member_condition(SurfaceFlux bc, const SurfaceParameters& own) {
  bc.surface = own;
  return bc;
}

/// The six walls of the brick, numbered like element faces: 2d is the wall at the low
/// end of direction d, 2d + 1 the one at the high end (a periodic direction's entries
/// are unused).
struct Walls {
  int kind[6] = {free_slip, free_slip, free_slip, free_slip, free_slip, free_slip};
  Real temperature[6] = {0, 0, 0, 0, 0, 0};  ///< T_wall [K] of isothermal walls
  SurfaceParameters surface{};               ///< of surface_flux and bulk_aerodynamic walls
};

/// f(condition) with the boundary-condition object of `wall` (host code: picks the
/// kernel instantiation).
template <class F>
void with_wall_condition(const Walls& walls, int wall, const F& f) {
  switch (walls.kind[wall]) {
    case no_slip_adiabatic:
      f(NoSlipAdiabatic{});
      break;
    case no_slip_isothermal:
      f(NoSlipIsothermal{walls.temperature[wall]});
      break;
    case surface_flux:
    case bulk_aerodynamic:
      f(SurfaceFlux{walls.surface, walls.kind[wall] == bulk_aerodynamic, wall / 2, wall % 2 ? Real(1) : Real(-1)});
      break;
    default:
      f(FreeSlip{});
      break;
  }
}

}  // namespace squall::physics
