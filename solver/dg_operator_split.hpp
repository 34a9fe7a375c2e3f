#pragma once
// The split form's volume term of DgOperator<N, Eq> (included at the end of
// solver/dg_operator_impl.hpp, whose pointwise pass it uses): the two-point fluxes with
// the pairs' gravity terms, formed by lines of an element (host backends) or node by
// node (devices), on bricks and on curved elements.
#include <type_traits>

namespace squall::dg {

/// The gravity term of the pair of nodes a and m of a line (split form):
/// G(a, m) = (1/2) {rho - rho_ref}_am (phi_m - phi_a), added to the momentum flux F#(a, m)
/// along the pair's direction, so that flux differencing forms the buoyancy
/// -(rho - rho_ref) grad(phi) as sum_m 2 D_am G(a, m) n_am. It is the potential energy's
/// share of the energy flux F_rho {e} (e holds phi) turned into momentum: the kinetic
/// energy the discrete buoyancy does work on is the one the energy flux moves into
/// potential energy (summation by parts; the pair terms of a face node vanish, phi being
/// continuous). A pointwise -(rho - rho_ref) g leaves the highest mode of each element's
/// column out of that balance, and a stratified flow's vertical grid-scale modes grow
/// from it (docs/solver.md). G(m, a) = -G(a, m) bit for bit; a resting reference state
/// gives G = 0 exactly.
KOKKOS_FORCEINLINE_FUNCTION Real gravity_pair(Real drho_a, Real drho_m, Real phi_a, Real phi_m) {
  return Real(0.5) * (Real(0.5) * (drho_a + drho_m)) * (phi_m - phi_a);
}

/// The flux-differencing terms of node `here` (index i along the compile-time direction
/// D): sum += sum_{m != i} 2 scale D_im (F#_D(here, m) - F#_D(here, here)), for m
/// increasing, node m = first + m stride (a compile-time direction keeps the flux's
/// components in registers). As sum_m D_im = 0, subtracting the node's own flux changes
/// nothing in exact arithmetic; in floating point it keeps the round-off of D (rows that
/// do not sum to exactly 0, w_i D_ij + w_j D_ji != B_ij in the last bit) from multiplying
/// the flux itself: a uniform flux gives exactly 0, and a mean wind no longer leaves a
/// same-signed round-off in the mass and energy budgets at every step.
/// normal(m, i) is the direction of the flux between the nodes m and i of the line:
/// AxisNormal{D} on a brick; on curved elements the mean of their contravariant vectors
/// J a^D, {J a^D}_im, with scale 1 (the volume term is multiplied by 1/J afterwards).
/// gravity(f, i, m) adds the pair's gravity term (gravity_pair) to f F#(i, m), or nothing.
template <int D, int N, class Eq, class Points, class NormalOf, class GravityOf>
KOKKOS_FORCEINLINE_FUNCTION void add_split_terms(const Eq& eq, const Basis<N>& b, const Points& P, int e, int first,
                                            int stride, int i, Real scale, const typename Eq::SplitPoint& here,
                                            typename Eq::Cons& sum, const NormalOf& normal,
                                            const GravityOf& gravity) {
  const typename Eq::Cons own = eq.two_point_flux(here, here, normal(i, i));
  for (int m = 0; m < N + 1; ++m) {
    if (m == i) continue;
    const int node = first + m * stride;
    const typename Eq::SplitPoint there = Eq::split_from([&](int v) { return P(e, v, node); });
    typename Eq::Cons f = eq.two_point_flux(here, there, normal(i, m));
    gravity(f, i, m);
    const Real weight = 2 * scale * b.D[i][m];
    for (int v = 0; v < Eq::nvar; ++v) sum[v] += weight * (f[v] - own[v]);
  }
}

/// The split-form points of one element, variable by variable, and a node index order in
/// which the lines along one direction run side by side: value(v, a, t) is split value v
/// (Eq::split_values) of node a along the line t.
template <int N, int Vars>
using LineMajor = Real[Vars][N + 1][(N + 1) * (N + 1)];

/// The flux-differencing terms along the compile-time direction D of all (N + 1)^2 lines
/// of an element at once, added to acc(v, a, t) (node a of line t) with the weights
/// weight[a][m] = 2 (2/h_D) D_am: per node the same terms, added in the same order (m = 0
/// … N, m != a, each less the node's own flux F#(a, a)), as add_split_terms. Each
/// two-point flux is formed once for both of its nodes (F#(a, b) = F#(b, a) bit for bit:
/// every operation in it is symmetric in a and b), and node a receives the term of pair
/// (a', m') when a' = a or m' = a, in increasing order of the other index, as the pairs
/// are visited (a' outer, m' > a' inner). The innermost loop runs over the lines, whose
/// values are contiguous: it vectorises without changing any node's arithmetic.
/// normal(a, m, t): the flux's direction between nodes a and m of line t, as in
/// add_split_terms.
/// gravity(a, m, t): G(a, m) of line t (gravity_pair), or nothing (Gravity false); node a
/// takes F#(a, m) + G(a, m) n, node m F#(a, m) - G(a, m) n, as add_split_terms forms them.
template <int D, int N, bool Gravity, class Eq, class NormalOf, class GravityOf>
KOKKOS_FORCEINLINE_FUNCTION void add_split_lines(const Eq& eq, const Real (&weight)[N + 1][N + 1],
                                            const LineMajor<N, Eq::nsplit>& P, LineMajor<N, Eq::nvar>& acc,
                                            const NormalOf& normal, const GravityOf& gravity) {
  constexpr int n1 = N + 1, lines = n1 * n1, nv = Eq::nvar;
  using Cons = typename Eq::Cons;
  const auto flux = [&](int a, int m, int t) {
    const typename Eq::SplitPoint pa = Eq::split_from([&](int v) { return P[v][a][t]; });
    const typename Eq::SplitPoint pm = Eq::split_from([&](int v) { return P[v][m][t]; });
    return eq.two_point_flux(pa, pm, normal(a, m, t));
  };
  LineMajor<N, nv> own;  // F#(a, a) of every node
  for (int a = 0; a < n1; ++a)
    for (int t = 0; t < lines; ++t) {
      const Cons f = flux(a, a, t);
      for (int v = 0; v < nv; ++v) own[v][a][t] = f[v];
    }
  for (int a = 0; a < n1; ++a)
    for (int m = a + 1; m < n1; ++m) {
      const Real wam = weight[a][m], wma = weight[m][a];
      for (int t = 0; t < lines; ++t) {
        const Cons f = flux(a, m, t);
        if constexpr (Gravity) {
          const Real g = gravity(a, m, t);
          Cons fa = f, fm = f;
          physics::add_along(&fa[Eq::i_rhou], g, normal(a, m, t));
          physics::add_along(&fm[Eq::i_rhou], -g, normal(a, m, t));
          for (int v = 0; v < nv; ++v) acc[v][a][t] += wam * (fa[v] - own[v][a][t]);
          for (int v = 0; v < nv; ++v) acc[v][m][t] += wma * (fm[v] - own[v][m][t]);
        } else {
          (void)gravity;
          for (int v = 0; v < nv; ++v) acc[v][a][t] += wam * (f[v] - own[v][a][t]);
          for (int v = 0; v < nv; ++v) acc[v][m][t] += wma * (f[v] - own[v][m][t]);
        }
      }
    }
}

/// Direction D's flux differencing of the line kernel (add_split_lines), with the pairs'
/// gravity terms where phi varies along D: z on a brick (its x and y lines are level),
/// every direction on curved elements. (A function of its own: nvcc's front end fails on
/// the generic lambda that took D from its argument's type inside the kernel.)
template <int D, int N, bool Curved, class Eq, class NormalOf, class GravityOf>
KOKKOS_FORCEINLINE_FUNCTION void split_lines_along(const Eq& eq, bool gravity, const Real (&weight)[N + 1][N + 1],
                                                   const LineMajor<N, Eq::nsplit>& P, LineMajor<N, Eq::nvar>& acc,
                                                   const NormalOf& normal, const GravityOf& gravity_terms) {
  if (gravity && (Curved || D == 2))
    add_split_lines<D, N, true>(eq, weight, P, acc, normal, gravity_terms);
  else
    add_split_lines<D, N, false>(eq, weight, P, acc, normal, 0);
}

/// Split form, by lines of nodes, one element per thread (host backends): the pointwise
/// pass and the flux differencing in one kernel, the split-form points of the element
/// kept in a local array (never stored), the gradient variables written for the viscous
/// phases. The same bits as the pointwise pass followed by the per-node kernel (tested).
///
/// Curved elements (Curved): the two-point fluxes along the mean contravariant vectors
/// {J a^d} of each pair (Gassner, Winters & Kopriva 2016, sec. 5; the metric-averaged
/// flux keeps the split form's conservation and free-stream preservation with
/// curl-form metrics), the weights 2 D_am, and the sum times 1/J of the node.
template <int N, class Eq>
template <bool Curved>
void DgOperator<N, Eq>::volume_integral_split_lines(const StateView& q, const StateView& dq) {
  const auto g = gvars_;
  const auto pi = exner_;
  const auto pi_ref = exner_ref_;
  const auto th = thermo_;
  const bool theta = theta_gradient_;
  const auto aux = aux_;
  const Eq eq = eq_;
  const Basis<N> b = basis_;
  const Real s0 = Curved ? 1 : two_over_h_[0], s1 = Curved ? 1 : two_over_h_[1];
  const auto hz = two_over_hz_;
  const auto metrics = metrics_;
  const auto inverse_jacobian = inverse_jacobian_;
  const bool gravity = gravity_ != 0;
  parallel_for("dg::volume_integral_split_lines", elements_, KOKKOS_LAMBDA(const int e) {
    constexpr int n1 = L::n1, lines = n1 * n1, ns = Eq::nsplit;
    const Real s2 = Curved ? 1 : hz(e);
    Real w0[n1][n1], w1[n1][n1], w2[n1][n1];  // 2 (2/h_d) D_am, as add_split_terms forms them
    for (int a = 0; a < n1; ++a)
      for (int m = 0; m < n1; ++m)
        w0[a][m] = 2 * s0 * b.D[a][m], w1[a][m] = 2 * s1 * b.D[a][m], w2[a][m] = 2 * s2 * b.D[a][m];
    // The points in three orders: z lines side by side (node n = t + n1^2 a, the natural
    // order), y lines (a = j, t = i + n1 k) and x lines (a = i, t = j + n1 k).
    LineMajor<N, ns> pz, py, px;
    // With gravity: rho - rho_ref and phi of every node (0, 1) in the same three orders.
    LineMajor<N, 2> gz, gy, gx;
    // Moist air on host backends: the primitive variables of the nodes in packs first.
    typename Eq::Prim prims[packed_nodes<Eq, L::nodes>];
    Real exners[packed_nodes<Eq, L::nodes>];
    element_primitives<L::nodes>(eq, q, aux, pi_ref, theta, e, prims, exners);
    for (int n = 0; n < L::nodes; ++n) {
      // Assigned rather than initialised: with GCC 12 the kernel then takes 3 % fewer
      // instructions (callgrind, taylor_green and BOMEX alike).
      NodePoint<Eq> p;
      p = element_point(eq, q, aux, pi, pi_ref, g, th, e, n, theta, prims, exners);
      Real values[ns];
      const typename Eq::SplitPoint sp = eq.split_point(p.q, p.w, p.a.p_ref);
      Eq::split_values(sp, values);
      const int i = n % n1, j = (n / n1) % n1, k = n / lines;
      for (int v = 0; v < ns; ++v) {
        pz[v][k][i + n1 * j] = values[v];
        py[v][j][i + n1 * k] = values[v];
        px[v][i][j + n1 * k] = values[v];
      }
      if (gravity) {
        const Real gv[2] = {sp.rho - p.a.rho_ref, p.a.phi};
        for (int v = 0; v < 2; ++v) {
          gz[v][k][i + n1 * j] = gv[v];
          if constexpr (Curved) {  // a brick's x and y lines are level (lines_along)
            gy[v][j][i + n1 * k] = gv[v];
            gx[v][i][j + n1 * k] = gv[v];
          }
        }
      }
    }
    // Curved: J a^d of every node, in direction d's line order. (Plain `if`s on Curved
    // where the kernel's own captures are read: nvcc does not let a device lambda capture
    // a variable first inside `if constexpr`.)
    LineMajor<N, 3> jx, jy, jz;
    if (Curved) {
      for (int n = 0; n < L::nodes; ++n) {
        const int i = n % n1, j = (n / n1) % n1, k = n / lines;
        for (int c = 0; c < 3; ++c) {
          jz[c][k][i + n1 * j] = metrics(e, 6 + c, n);
          jy[c][j][i + n1 * k] = metrics(e, 3 + c, n);
          jx[c][i][j + n1 * k] = metrics(e, c, n);
        }
      }
    }
    const auto normal_of = [&](const LineMajor<N, 3>& ja, auto axis) {
      return [&ja, axis](int a, int m, int t) {
        if constexpr (Curved) {
          (void)axis;
          return physics::VectorNormal{{Real(0.5) * (ja[0][a][t] + ja[0][m][t]), Real(0.5) * (ja[1][a][t] + ja[1][m][t]),
                                        Real(0.5) * (ja[2][a][t] + ja[2][m][t])}};
        } else {
          (void)ja, (void)a, (void)m, (void)t;
          return axis;
        }
      };
    };
    const auto gravity_of = [&](const LineMajor<N, 2>& gl) {
      return [&gl](int a, int m, int t) { return gravity_pair(gl[0][a][t], gl[0][m][t], gl[1][a][t], gl[1][m][t]); };
    };
    // Per node: 0 + the x terms + the y terms + the z terms, each direction's sum carried
    // into the next one's order.
    LineMajor<N, nvar> ax, ay;
    for (int v = 0; v < nvar; ++v)
      for (int a = 0; a < n1; ++a)
        for (int t = 0; t < lines; ++t) ax[v][a][t] = 0;
    split_lines_along<0, N, Curved>(eq, gravity, w0, px, ax, normal_of(jx, physics::AxisNormal{0}), gravity_of(gx));
    for (int v = 0; v < nvar; ++v)
      for (int k = 0; k < n1; ++k)
        for (int j = 0; j < n1; ++j)
          for (int i = 0; i < n1; ++i) ay[v][j][i + n1 * k] = ax[v][i][j + n1 * k];
    split_lines_along<1, N, Curved>(eq, gravity, w1, py, ay, normal_of(jy, physics::AxisNormal{1}), gravity_of(gy));
    for (int v = 0; v < nvar; ++v)
      for (int k = 0; k < n1; ++k)
        for (int j = 0; j < n1; ++j)
          for (int i = 0; i < n1; ++i) ax[v][k][i + n1 * j] = ay[v][j][i + n1 * k];
    split_lines_along<2, N, Curved>(eq, gravity, w2, pz, ax, normal_of(jz, physics::AxisNormal{2}), gravity_of(gz));
    for (int v = 0; v < nvar; ++v)
      for (int k = 0; k < n1; ++k)
        for (int t = 0; t < lines; ++t) {
          if (Curved)
            dq(e, v, t + lines * k) = -ax[v][k][t] * inverse_jacobian(e, t + lines * k);
          else
            dq(e, v, t + lines * k) = -ax[v][k][t];
        }
  });
}

/// Split form: dq_i = -sum_d (2/h_d) sum_m 2 D_im F#(q_i, q_m) along d (flux
/// differencing; Gassner, Winters & Kopriva 2016, eq. 3.20), formed as
/// sum_{m != i} 2 D_im (F#(q_i, q_m) - F#(q_i, q_i)) (add_split_terms), surface terms as
/// before.
/// Node by node, each thread forming its node's fluxes from the stored points (devices,
/// where a thread per node keeps loads coalesced; host backends use the line kernel).
/// Curved: as volume_integral_split_lines.
template <int N, class Eq>
template <bool Curved>
void DgOperator<N, Eq>::volume_integral_split(const StateView& dq) {
  const auto P = points_;
  const Eq eq = eq_;
  const Basis<N> b = basis_;
  const Real s0 = Curved ? 1 : two_over_h_[0], s1 = Curved ? 1 : two_over_h_[1];
  const auto hz = two_over_hz_;
  const auto metrics = metrics_;
  const auto inverse_jacobian = inverse_jacobian_;
  const auto aux = aux_;
  const bool gravity = gravity_ != 0;
  parallel_for_nodes<L::n1>("dg::volume_integral_split", elements_,
                           KOKKOS_LAMBDA(const int e, const int i, const int j, const int k) {
    const int n = L::node(i, j, k);
    const Real s2 = Curved ? 1 : hz(e);
    const typename Eq::SplitPoint here = Eq::split_from([&](int v) { return P(e, v, n); });
    // The direction between node `here` (index a along d) and the node with index m.
    // (ja names the kernel's metrics outside the `if constexpr` below: nvcc does not let
    // a device lambda capture a variable first inside one.)
    const DeviceView<Real***>& ja = metrics;
    const auto normal_of = [&](int d, int first, int stride, auto axis) {
      return [=](int a, int m) {
        if constexpr (Curved) {
          (void)axis;
          const int na = first + a * stride, nb = first + m * stride;
          return physics::VectorNormal{{Real(0.5) * (ja(e, 3 * d, na) + ja(e, 3 * d, nb)),
                                        Real(0.5) * (ja(e, 3 * d + 1, na) + ja(e, 3 * d + 1, nb)),
                                        Real(0.5) * (ja(e, 3 * d + 2, na) + ja(e, 3 * d + 2, nb))}};
        } else {
          (void)d, (void)first, (void)stride, (void)a, (void)m;
          return axis;
        }
      };
    };
    // The pair's gravity term along direction d (see volume_integral_split_lines).
    const auto gravity_of = [&](int d, int first, int stride, const auto& normal) {
      return [=](Cons& f, int a, int m) {
        if (!gravity || !(Curved || d == 2)) return;
        const int na = first + a * stride, nb = first + m * stride;
        const Real g = gravity_pair(P(e, 0, na) - aux(e, Eq::a_rho_ref, na), P(e, 0, nb) - aux(e, Eq::a_rho_ref, nb),
                                    aux(e, Eq::a_phi, na), aux(e, Eq::a_phi, nb));
        physics::add_along(&f[Eq::i_rhou], g, normal(a, m));
      };
    };
    Cons sum{};
    const int f0 = L::node(0, j, k), f1 = L::node(i, 0, k), f2 = L::node(i, j, 0);
    const auto along0 = normal_of(0, f0, 1, physics::AxisNormal{0});
    const auto along1 = normal_of(1, f1, L::n1, physics::AxisNormal{1});
    const auto along2 = normal_of(2, f2, L::n1 * L::n1, physics::AxisNormal{2});
    add_split_terms<0>(eq, b, P, e, f0, 1, i, s0, here, sum, along0, gravity_of(0, f0, 1, along0));
    add_split_terms<1>(eq, b, P, e, f1, L::n1, j, s1, here, sum, along1, gravity_of(1, f1, L::n1, along1));
    add_split_terms<2>(eq, b, P, e, f2, L::n1 * L::n1, k, s2, here, sum, along2,
                       gravity_of(2, f2, L::n1 * L::n1, along2));
    for (int v = 0; v < nvar; ++v) {
      if (Curved)  // a plain if: see volume_integral_split_lines
        dq(e, v, n) = -sum[v] * inverse_jacobian(e, n);
      else
        dq(e, v, n) = -sum[v];
    }
  });
}

}  // namespace squall::dg
