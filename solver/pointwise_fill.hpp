#pragma once
/// Fills DG fields from a pointwise function of position: what cases use to set their
/// initial state and exact solution. The function is a device functor
///   PointState f(Real x, Real y, Real z) const
/// (a struct with a KOKKOS_INLINE_FUNCTION call operator).
#include "core/launch.hpp"
#include "solver/case.hpp"
#include "solver/dg_layout.hpp"

namespace squall {

/// A point's state as a case describes it: primitive variables and the hydrostatic
/// reference state at that point.
struct PointState {
  Real rho, u, v, w, T;  ///< density, velocity, temperature
  Real rho_ref, p_ref;   ///< reference state (0, 0 without gravity)
};

/// q and aux at every node from f; the geopotential is g z.
template <class F>
void fill_pointwise(const std::string& label, const dg::Equations& eq, const dg::CoordView& x,
                    const dg::StateView& q, const dg::AuxView& aux, Real g, const F& f) {
  using Eq = dg::Equations;
  const int elements = static_cast<int>(q.extent(0)), nodes = static_cast<int>(q.extent(2));
  parallel_for(label, elements, nodes, KOKKOS_LAMBDA(const int e, const int n) {
    const Real z = x(e, 2, n);
    const PointState p = f(x(e, 0, n), x(e, 1, n), z);
    const Real phi = g * z;
    const dg::Equations::Cons s = eq.conservative(p.rho, p.u, p.v, p.w, p.T, phi);
    for (int v = 0; v < Eq::nvar; ++v) q(e, v, n) = s[v];
    aux(e, Eq::a_rho_ref, n) = p.rho_ref;
    aux(e, Eq::a_p_ref, n) = p.p_ref;
    aux(e, Eq::a_phi, n) = phi;
  });
}

/// q only (an exact solution at some time), geopotential g z.
template <class F>
void fill_state(const std::string& label, const dg::Equations& eq, const dg::CoordView& x, const dg::StateView& q,
                Real g, const F& f) {
  const int elements = static_cast<int>(q.extent(0)), nodes = static_cast<int>(q.extent(2));
  parallel_for(label, elements, nodes, KOKKOS_LAMBDA(const int e, const int n) {
    const Real z = x(e, 2, n);
    const PointState p = f(x(e, 0, n), x(e, 1, n), z);
    const dg::Equations::Cons s = eq.conservative(p.rho, p.u, p.v, p.w, p.T, g * z);
    for (int v = 0; v < dg::Equations::nvar; ++v) q(e, v, n) = s[v];
  });
}

}  // namespace squall

namespace squall {

/// Makes the reference state the discrete state itself: rho_ref = rho and p_ref the
/// pressure computed from q, so that state is an exact discrete equilibrium (the
/// pressure perturbation and the buoyancy vanish bitwise).
inline void reference_from_state(const dg::Equations& eq, const dg::StateView& q, const dg::AuxView& aux) {
  using Eq = dg::Equations;
  const int elements = static_cast<int>(q.extent(0)), nodes = static_cast<int>(q.extent(2));
  parallel_for("case::reference_from_state", elements, nodes, KOKKOS_LAMBDA(const int e, const int n) {
    const physics::Prim w = eq.primitive(dg::load(q, e, n), aux(e, Eq::a_phi, n));
    aux(e, Eq::a_rho_ref, n) = w.rho;
    aux(e, Eq::a_p_ref, n) = w.p;
  });
}

}  // namespace squall

namespace squall {

/// A case without gravity whose exact solution is a pointwise functor with a time
/// member `t` (isentropic vortex, shear wave): the initial state is the functor at t = 0
/// and the exact state at time t the same functor with t set. No reference state.
template <class Exact>
class ExactSolutionCase : public Case {
 public:
  ExactSolutionCase(std::string label, Exact exact) : label_(std::move(label)), exact_(exact) { exact_.t = 0; }
  Real gravity() const override { return 0; }
  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    fill_pointwise("case::" + label_, equations(), x, q, aux, 0, exact_);
  }
  bool has_exact_solution() const override { return true; }
  void exact_solution(Real t, const dg::CoordView& x, const dg::StateView& q) const override {
    Exact at_t = exact_;
    at_t.t = t;
    fill_state("case::" + label_ + "_exact", equations(), x, q, 0, at_t);
  }

 private:
  std::string label_;
  Exact exact_;
};

}  // namespace squall

namespace squall {

/// The tracer densities rho c_k at every node from a pointwise function of position,
///   Real f(int k, Real x, Real y, Real z) const   (the mixing ratio c_k [kg/kg]),
/// with the density already in q: q(rho c_k) = q(rho) f(k, x), rho c_k being state
/// variable first + k.
template <class F>
void fill_tracers(const std::string& label, const dg::CoordView& x, const dg::StateView& q, int first, int tracers,
                  const F& f) {
  const int elements = static_cast<int>(q.extent(0)), nodes = static_cast<int>(q.extent(2));
  parallel_for(label, elements, nodes, KOKKOS_LAMBDA(const int e, const int n) {
    for (int k = 0; k < tracers; ++k)
      q(e, first + k, n) = q(e, dg::Equations::i_rho, n) * f(k, x(e, 0, n), x(e, 1, n), x(e, 2, n));
  });
}

}  // namespace squall
