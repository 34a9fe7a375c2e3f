#pragma once
// The sources of DgOperator<N, Eq> (included at the end of solver/dg_operator_impl.hpp,
// whose node helpers they use): the pointwise sources of physics/sources.hpp, the
// radiation's energy source, and the large-scale forcing, node by node or (moist air on
// host backends) in packs of nodes, with the ledger's rates of each.
#include <type_traits>

#include "core/simd.hpp"
#include "physics/large_scale_forcing.hpp"

namespace squall::dg {

/// dq += S(q, aux, x, t) at every node, for the source types the options switched on
/// (physics/sources.hpp); one kernel instantiation per combination. With the large-scale
/// forcing on, the forcing kernel adds the others too (one pass over the state).
template <int N, class Eq>
void DgOperator<N, Eq>::sources(Real t, const StateView& q, const StateView& dq) {
  ScopedTimer timer(timers_, "sources");
  const physics::Buoyancy buoyancy{gravity_};
  const physics::RayleighSponge sponge{sponge_layer_};
  const bool forcing = forcing_.active();
  const auto add = [&](const auto& first) {
    if (forcing)
      forcing_sources(t, q, dq, first);
    else
      add_sources(t, q, dq, first);
  };
  const auto with_sponge = [&](const auto& first) {
    if (sponge_)
      add(physics::SourcePair<std::decay_t<decltype(first)>, physics::RayleighSponge>{first, sponge});
    else
      add(first);
  };
  // The split form's volume term holds the buoyancy (gravity_pair); the standard form
  // takes it pointwise.
  if (gravity_ != 0 && !split_form_)
    with_sponge(buoyancy);
  else if (sponge_)
    add(sponge);
  else if (forcing)
    forcing_sources(t, q, dq, physics::NoSource{});
  if (radiation_) radiation_sources(q, dq);
  if (case_sources_) case_sources_({t, q, dq, aux_, x_, node_weights_, conserved_, element_rates_, comm_, ledger_rates_.data(), members_});
}

/// The radiation's energy source -dF/dz (physics/radiation.hpp): rho q_l at every node
/// (from the pointwise pass's q_l), the liquid water paths below and above every node
/// (column operations), z_i per column where it is diagnosed, F at the element's nodes,
/// and minus the derivative along z of its polynomial, with the ledger's rate (element
/// sums in node order, then the exact sum).
template <int N, class Eq>
void DgOperator<N, Eq>::radiation_sources(const StateView& q, const StateView& dq) {
  if constexpr (Eq::moist) {
    const auto th = thermo_;
    const auto x = x_;
    const auto rho_ql = water_density_;
    const Real bottom = forcing_bottom_;
    const auto mask = inversion_mask_;
    const bool diagnose = radiation_scheme_.inversion_qt > 0;  // every member's alike
    const auto schemes = member_radiation_;  // each member's numbers
    const int per_member = member_elements_;
    parallel_for("dg::radiation_water", elements_, L::nodes, KOKKOS_LAMBDA(const int e, const int n) {
      const Real rho = q(e, Eq::i_rho, n);
      rho_ql(e, n) = rho * th(e, n, 1);  // Eq::thermo_values: T, q_l, q_i
      if (diagnose) {
        const Real threshold = schemes(e / per_member).inversion_qt;
        mask(e, n) = q(e, Eq::i_rhoqt, n) >= threshold * rho ? x(e, 2, n) - bottom : ColumnOperations<N>::lowest;
      }
    });
    columns_->integrals(water_density_, lwp_below_, lwp_above_);
    if (diagnose) columns_->column_max(inversion_mask_, inversion_);
    const auto below = lwp_below_, above = lwp_above_, zi = inversion_, net = radiation_flux_;
    const Basis<N> basis = basis_;
    const auto two_over_hz = two_over_hz_;
    const auto weights = node_weights_;
    const auto rates = element_rates_;
    int energy = 0;
    for (int c = 0; c < Eq::nconserved; ++c)
      if (Eq::conserved(c) == Eq::i_rhoe) energy = c;
    parallel_for("dg::radiation", elements_, KOKKOS_LAMBDA(const int e) {
      const physics::DycomsRadiation r = schemes(e / per_member);
      Real flux[L::nodes];
      for (int n = 0; n < L::nodes; ++n) {
        const Real z_i = diagnose && zi(e, n) > ColumnOperations<N>::lowest ? zi(e, n) : r.inversion_height;
        flux[n] = r.net_flux(x(e, 2, n) - bottom, above(e, n), below(e, n), z_i);
        net(e, n) = flux[n];
      }
      Real sum = 0;
      const Real dz = two_over_hz(e);
      for (int n = 0; n < L::nodes; ++n) {
        const int k = L::index(n, 2);
        Real d = 0;
        for (int j = 0; j < L::n1; ++j) d += basis.D[k][j] * flux[L::along(n, 2, j)];
        const Real s = -(dz * d);
        dq(e, Eq::i_rhoe, n) += s;
        sum += weights(e, n) * s;
      }
      for (int c = 0; c < Eq::nconserved; ++c) rates(e, c) = c == energy ? sum : Real(0);
    });
    add_element_rates(rates, comm_, ledger_rates_.data(), members_);
  } else {
    (void)q, (void)dq;
  }
}

/// The large-scale forcing's tendencies s (zero on entry) at a node of primitive
/// variables w, or at a pack of nodes (S = Pack: the same operations lane by lane):
/// Coriolis and the geostrophic sponge on the momentum with their work, the heating's
/// enthalpy, subsidence from d h_tot / dz and d q_t / dz, and the drying with the
/// enthalpy excess of its water. factor: the node's physics::ForcingFactors.
template <class Eq, class P, class S = physics::scalar_of<P>>
KOKKOS_FORCEINLINE_FUNCTION void forcing_tendencies(const Eq& eq, const P& w, Real f, const S* factor, const S& dh,
                                               const S& dqt, S* s) {
  using F = physics::ForcingFactors;
  S m[4] = {S(0), S(0), S(0), S(0)};
  physics::add_coriolis(f, factor[F::u_g], factor[F::v_g], w.rho, w.u, m);
  physics::add_geostrophic_sponge(factor[F::sponge], factor[F::u_g], factor[F::v_g], w.rho, w.u, m);
  for (int i = 0; i < 3; ++i) s[Eq::i_rhou + i] = m[i];
  S cp = eq.gas.cp_d;
  if constexpr (Eq::moist) cp = eq.thermo.cp(w.partition());
  s[Eq::i_rhoe] = m[3] + w.rho * cp * factor[F::heating];
  s[Eq::i_rhoe] += physics::subsidence_tendency(w.rho, factor[F::subsidence], dh);
  if constexpr (Eq::moist) {
    // Subsidence's energy is all in d h_tot / dz; the drying's is the enthalpy excess.
    const S drying = w.rho * factor[F::drying];
    s[Eq::i_rhoqt] = drying + physics::subsidence_tendency(w.rho, factor[F::subsidence], dqt);
    s[Eq::i_rhoe] += eq.water_enthalpy_excess(w.T) * drying;
  } else {
    (void)dqt;
  }
}

/// h_tot = e_tot + p / rho and q_t of a node (or a pack of nodes) with state c and
/// primitive variables w: what subsidence acts on.
template <class Eq, class C, class P>
KOKKOS_INLINE_FUNCTION void subsided_fields(const C& c, const P& w, physics::scalar_of<P>& h_tot,
                                            physics::scalar_of<P>& q_t) {
  h_tot = (c[Eq::i_rhoe] + w.p) / w.rho;
  q_t = 0;
  if constexpr (Eq::moist) q_t = w.q_t;
}

/// d f / d xi_3 at node n of an element from f at its nodes (the element's polynomial
/// along its z line; times 2 / h_z, the derivative along z).
template <int N>
KOKKOS_INLINE_FUNCTION Real along_z_derivative(const Basis<N>& basis, const Real* f, int n) {
  using L = Layout<N>;
  const int k = L::index(n, 2);
  Real d = 0;
  for (int j = 0; j < L::n1; ++j) d += basis.D[k][j] * f[L::along(n, 2, j)];
  return d;
}

/// The forcing kernel's work at the nodes of element e, pack_width nodes at a time (host
/// backends; moist air, whose forcing is worth the lanes): h_tot and q_t of every node
/// where subsidence is on (the last nodes one by one), then dq += first's source and the
/// forcing at the nodes of whole packs, with the forcing's weighted sums added to sum in
/// node order. The same bits, node by node, as the scalar loop, which takes the nodes
/// from the returned one on. A pack is W consecutive nodes, read and written where they
/// lie side by side (the views are LayoutRight, node index last; the thermodynamic
/// values, node-major, are gathered).
template <int N, class Eq, class Source>
int forcing_in_packs(const Eq& eq, const Source& first, Real t, const StateView& q, const StateView& dq,
                     const AuxView& aux, const DeviceView<Real***>& x, const DeviceView<Real***>& th,
                     const DeviceView<Real***>& factors, const DeviceView<Real**>& weights, const Basis<N>& basis,
                     Real dz, Real f, bool subsidence, int e, Real* h_tot, Real* q_t, Real* sum) {
  using L = Layout<N>;
  using F = physics::ForcingFactors;
  constexpr int W = pack_width;
  using P = Pack<W>;
  using Cons = typename Eq::Cons;
  constexpr int nodes = L::nodes, planes = L::n1 * L::n1, packed = nodes / W * W;
  const Real* const qe = &q(e, 0, 0);
  const Real* const phi = &aux(e, Eq::a_phi, 0);
  const auto state = [&](int n) {
    typename Eq::template ConsOf<P> c;
    for (int v = 0; v < Eq::nvar; ++v) c[v] = P::load(qe + v * nodes + n);
    return c;
  };
  const auto primitives = [&](const typename Eq::template ConsOf<P>& c, int n) {
    return eq.primitive_from(c, P::load(phi + n),
                             [&](int k) { return P::gather([&](int l) { return th(e, n + l, k); }); });
  };
  // d f / d xi_3 of the pack's nodes: a plane's nodes share their line's coefficients.
  const auto derivative = [&](const Real* values, int n) {
    const int k = L::index(n, 2);
    if (L::index(n + W - 1, 2) != k)
      return P::gather([&](int l) { return along_z_derivative(basis, values, n + l); });
    P d = 0;
    for (int j = 0; j < L::n1; ++j) d += basis.D[k][j] * P::load(values + n + planes * (j - k));
    return d;
  };
  if (subsidence) {
    for (int n = 0; n < packed; n += W) {
      P h, water;
      const auto c = state(n);
      subsided_fields<Eq>(c, primitives(c, n), h, water);
      h.store(h_tot + n), water.store(q_t + n);
    }
    for (int n = packed; n < nodes; ++n) {
      const Cons c = load<Eq>(q, e, n);
      subsided_fields<Eq>(c, node_primitive(eq, c, phi[n], th, e, n), h_tot[n], q_t[n]);
    }
  }
  Real* const dqe = &dq(e, 0, 0);
  for (int n = 0; n < packed; n += W) {
    P rate[Eq::nvar];  // dq with first's source, node by node
    if constexpr (std::is_same_v<Source, physics::NoSource>) {
      for (int v = 0; v < Eq::nvar; ++v) rate[v] = P::load(dqe + v * nodes + n);
    } else {
      Cons r[W];
      for (int l = 0; l < W; ++l) {
        const Real position[3] = {x(e, 0, n + l), x(e, 1, n + l), x(e, 2, n + l)};
        r[l] = load<Eq>(dq, e, n + l);
        first.add(eq, load<Eq>(q, e, n + l), load_aux(aux, e, n + l), position, t, r[l]);
      }
      for (int v = 0; v < Eq::nvar; ++v) rate[v] = P::gather([&](int l) { return r[l][v]; });
    }
    const auto c = state(n);
    const auto w = primitives(c, n);
    P factor[F::count];
    for (int i = 0; i < F::count; ++i) factor[i] = P::load(&factors(e, i, n));
    P dh = 0, dqt = 0;
    if (subsidence) dh = derivative(h_tot, n) * dz, dqt = derivative(q_t, n) * dz;
    P s[Eq::nvar];
    for (int v = 0; v < Eq::nvar; ++v) s[v] = 0;
    forcing_tendencies(eq, w, f, factor, dh, dqt, s);
    for (int v = 0; v < Eq::nvar; ++v) (rate[v] + s[v]).store(dqe + v * nodes + n);
    const P weight = P::load(&weights(e, n));
    for (int k = 0; k < Eq::nconserved; ++k) {
      const P term = weight * s[Eq::conserved(k)];
      for (int l = 0; l < W; ++l) sum[k] += term[l];
    }
  }
  return packed;
}

/// forcing_in_packs where it applies (moist air on host backends), else 0: the scalar
/// loop takes every node. The forcing kernel calls this, not `if constexpr`: nvcc does
/// not let a device lambda capture a variable first inside one.
template <int N, class Eq, class Source>
KOKKOS_FORCEINLINE_FUNCTION int forcing_packs_if_host(const Eq& eq, const Source& first, Real t, const StateView& q,
                                                      const StateView& dq, const AuxView& aux,
                                                      const DeviceView<Real***>& x, const DeviceView<Real***>& th,
                                                      const DeviceView<Real***>& factors,
                                                      const DeviceView<Real**>& weights, const Basis<N>& basis,
                                                      Real dz, Real f, bool subsidence, int e, Real* h_tot,
                                                      Real* q_t, Real* sum) {
  if constexpr (host_backend && Eq::moist) {
    return forcing_in_packs<N>(eq, first, t, q, dq, aux, x, th, factors, weights, basis, dz, f, subsidence, e,
                               h_tot, q_t, sum);
  } else {
    (void)eq, (void)first, (void)t, (void)q, (void)dq, (void)aux, (void)x, (void)th, (void)factors;
    (void)weights, (void)basis, (void)dz, (void)f, (void)subsidence, (void)e, (void)h_tot, (void)q_t, (void)sum;
    return 0;
  }
}

/// The large-scale forcing (physics/large_scale_forcing.hpp) after the operator's other
/// sources `first` (added first at each node: the same bits as their own pass followed by
/// the forcing's), with the ledger's rates of the forcing, one element per thread.
/// Subsidence needs d h_tot / dz and d q_t / dz: the derivative of each element's own
/// polynomial (the forcing is smooth, and the fields it acts on are resolved), from h_tot
/// and q_t at the element's nodes, formed first. Moist air on host backends takes the
/// nodes in packs (forcing_in_packs) unless dg.kernel_layout = "nodes".
template <int N, class Eq>
template <class Source>
void DgOperator<N, Eq>::forcing_sources(Real t, const StateView& q, const StateView& dq, const Source& first) {
  using F = physics::ForcingFactors;
  const auto coriolis = member_coriolis_;
  const int per_member = member_elements_;
  const Eq eq = eq_;
  const auto aux = aux_;
  const auto x = x_;
  const auto th = thermo_;
  const auto factors = forcing_factors_;
  const auto weights = node_weights_;
  const auto rates = element_rates_;
  const bool subsidence = forcing_.subsidence.active();
  const Basis<N> basis = basis_;
  const auto two_over_hz = two_over_hz_;
  const bool packs = kernel_layout_ != KernelLayout::nodes;  // the node layout: one node at a time, as on GPUs
  parallel_for("dg::forcing", elements_, KOKKOS_LAMBDA(const int e) {
    const Real dz = two_over_hz(e);
    const Real f = coriolis(e / per_member);
    // h_tot and q_t of the element's nodes, for their derivatives along z.
    Real h_tot[L::nodes], q_t[L::nodes];
    // The element's rates in registers (the stores into dq cannot alias them).
    Real sum[Eq::nconserved] = {};
    int from = 0;  // the first node the scalar loop takes (0: it takes them all)
    if (packs)
      from = forcing_packs_if_host<N>(eq, first, t, q, dq, aux, x, th, factors, weights, basis, dz, f, subsidence, e,
                                      h_tot, q_t, sum);
    if (subsidence && from == 0) {
      for (int n = 0; n < L::nodes; ++n) {
        const Cons s = load<Eq>(q, e, n);
        subsided_fields<Eq>(s, node_primitive(eq, s, aux(e, Eq::a_phi, n), th, e, n), h_tot[n], q_t[n]);
      }
    }
    for (int n = from; n < L::nodes; ++n) {
      const Cons c = load<Eq>(q, e, n);
      const physics::Aux a = load_aux(aux, e, n);
      const Real position[3] = {x(e, 0, n), x(e, 1, n), x(e, 2, n)};
      Cons rate = load<Eq>(dq, e, n);
      first.add(eq, c, a, position, t, rate);
      const typename Eq::Prim w = node_primitive(eq, c, a.phi, th, e, n);
      Real factor[F::count];
      for (int i = 0; i < F::count; ++i) factor[i] = factors(e, i, n);
      Real dh = 0, dqt = 0;
      if (subsidence) {
        dh = along_z_derivative(basis, h_tot, n) * dz;
        dqt = along_z_derivative(basis, q_t, n) * dz;
      }
      Real s[nvar] = {};
      forcing_tendencies(eq, w, f, factor, dh, dqt, s);
      for (int v = 0; v < nvar; ++v) dq(e, v, n) = rate[v] + s[v];
      const Real weight = weights(e, n);
      for (int k = 0; k < Eq::nconserved; ++k) sum[k] += weight * s[Eq::conserved(k)];
    }
    for (int k = 0; k < Eq::nconserved; ++k) rates(e, k) = sum[k];
  });
  add_element_rates(rates, comm_, ledger_rates_.data(), members_);
}

template <int N, class Eq>
template <class Source>
void DgOperator<N, Eq>::add_sources(Real t, const StateView& q, const StateView& dq, const Source& source) {
  const auto x = x_;
  const auto aux = aux_;
  const Eq eq = eq_;
  parallel_for("dg::sources", elements_, L::nodes, KOKKOS_LAMBDA(const int e, const int n) {
    const Real position[3] = {x(e, 0, n), x(e, 1, n), x(e, 2, n)};
    Cons rate = load<Eq>(dq, e, n);
    source.add(eq, load<Eq>(q, e, n), load_aux(aux, e, n), position, t, rate);
    for (int v = 0; v < nvar; ++v) dq(e, v, n) = rate[v];
  });
}

}  // namespace squall::dg
