#pragma once
/// Source terms as pointwise types. Each adds its rate at one node to dq:
///   void add(const Eq& eq, const Cons& q, const Aux& a, const Real x[3], Real t, Cons& dq) const
/// (x: the node's position [m], t: time [s]). A switched-off source is not an `if` in a
/// kernel: it is left out of the list the operator instantiates its kernel for (or is
/// NoSource). A source that changes a conserved quantity (mass, total energy) must also
/// enter the conservation ledger; none of the sources here does: buoyancy and the sponge
/// act on momentum only (the work of gravity is in the energy flux through Phi, and the
/// kinetic energy the sponge removes stays as internal energy).
#include "physics/dry_air.hpp"
#include "physics/sponge.hpp"

namespace squall::physics {

/// No source.
struct NoSource {
  template <class Eq>
  KOKKOS_INLINE_FUNCTION void add(const Eq&, const typename Eq::Cons&, const typename Eq::Aux&, const Real*, Real,
                                  typename Eq::Cons&) const {}
};

/// Gravity in perturbation form, -(rho - rho_r) g e_z in the momentum equation.
struct Buoyancy {
  Real gravity;  ///< g [m s^-2]
  template <class Eq>
  KOKKOS_INLINE_FUNCTION void add(const Eq&, const typename Eq::Cons& q, const typename Eq::Aux& a, const Real*,
                                  Real, typename Eq::Cons& dq) const {
    dq[Eq::i_rhow] += -(q[Eq::i_rho] - a.rho_ref) * gravity;
  }
};

/// The Rayleigh damping layer of physics/sponge.hpp: S_rhou = -alpha(z) (rho u - rho u_ref).
struct RayleighSponge {
  Sponge layer;
  template <class Eq>
  KOKKOS_INLINE_FUNCTION void add(const Eq&, const typename Eq::Cons& q, const typename Eq::Aux&, const Real* x,
                                  Real, typename Eq::Cons& dq) const {
    const Real alpha = layer.coefficient(x);
    if (alpha == 0) return;
    const Real rho = q[Eq::i_rho];
    for (int d = 0; d < 3; ++d) dq[Eq::i_rhou + d] -= alpha * (q[Eq::i_rhou + d] - rho * layer.u_ref[d]);
  }
};

/// Two sources, the first added first.
template <class A, class B>
struct SourcePair {
  A first;
  B second;
  template <class Eq>
  KOKKOS_INLINE_FUNCTION void add(const Eq& eq, const typename Eq::Cons& q, const typename Eq::Aux& a, const Real* x,
                                  Real t, typename Eq::Cons& dq) const {
    first.add(eq, q, a, x, t, dq);
    second.add(eq, q, a, x, t, dq);
  }
};

}  // namespace squall::physics
