#pragma once
// Viscous phases of DgOperator<N, Eq>: the BR1 scheme of Bassi & Rebay (1997), J. Comput.
// Phys. 131, 267-279, with central fluxes for the lifted gradients and for the viscous
// flux (Gassner, Winters, Hindenlang & Kopriva 2018, J. Sci. Comput. 77, 154-200).
//   G_d = (2/h_d) [ D g + L_d (g* - g) ],  g = (u, v, w, T, theta, c_k),  g* = {g}
//   dq += (2/h_d) [ D F_v,d + L_d (F_v* - F_v) ],  F_v* = {F_v}
// At walls g* and F_v* come from the wall's boundary-condition type
// (physics/boundary_conditions.hpp; free-slip: F_v* = 0; no-slip: u* = 0, interior stress).
// Every face value is written once per element face; the lifting reads them per node.
//
// Curved elements (terrain, warped meshes): with the contravariant vectors J a^D and the
// Jacobian J of each node,
//   G = (1/J) sum_D (J a^D) [ D g + L_D (g* - g) ]_D        (the chain-rule form)
//   dq += (1/J) sum_D [ D (J a^D . F_v) + L_D (F_v* - F_v) . J a^D ]
// The gradient's form is the discrete adjoint of the divergence's by summation by parts,
// as BR1's stability on curved meshes needs (Gassner et al. 2018, sec. 4); the face
// terms are scalars per face node, as on the brick, because both elements of a face
// hold the same J a^D there (solver/geometry.hpp). F_v's stored traces are then its
// contravariant normal components F_v . J a^D.

#include <cmath>

namespace squall::dg {

/// BR1's correction of one side of a face for a lifted variable: {g} - g_own =
/// (g_other - g_own) / 2. Every face kernel and the fused lifting use it.
KOKKOS_INLINE_FUNCTION Real half_jump(Real own, Real other) { return 0.5 * (other - own); }

/// The viscous divergence at node (i, j, k) of component v: sum_d (2/h_d) D F_v,d along
/// d, the directions in order 0, 1, 2 (fv(e, vflux_index(d, v), node): a View or a local
/// accessor). The node layout's kernel and the element layout's whole-element method
/// use it; the plane method forms the same sums in two parts (ViscousElementKernel).
template <class Eq, int N, class F>
KOKKOS_FORCEINLINE_FUNCTION Real viscous_divergence(const Basis<N>& b, const F& fv, int e, int v, int i, int j, int k,
                                               Real s0, Real s1, Real s2) {
  Real sum = 0;  // literal directions: no runtime index
  sum += s0 * derivative_at(b, fv, e, vflux_index<Eq>(0, v), i, j, k, 0);
  sum += s1 * derivative_at(b, fv, e, vflux_index<Eq>(1, v), i, j, k, 1);
  sum += s2 * derivative_at(b, fv, e, vflux_index<Eq>(2, v), i, j, k, 2);
  return sum;
}

template <int N, class Eq>
KOKKOS_INLINE_FUNCTION Real ViscousTraces<N, Eq>::operator()(int e, int lf, int v, int m) const {
  if (by_face) return faces(e, lf, v - Eq::first_viscous, m);
  return volume(e, vflux_index<Eq>(lf / 2, v), Layout<N>::volume_node_of(m, lf));
}

template <int N, class Eq>
void DgOperator<N, Eq>::gradients_local() {
  ScopedTimer timer(timers_, "gradients");
  const auto g = gvars_;  // filled by volume_integral, with the other pointwise values
  const auto SG = grad_surface_;
  const auto faces = interior_;
  const LiftedGradients<Eq> lifted = lifted_gradients();
  // The volume part D g of the gradients is formed where it is used, in
  // lift_and_viscous_flux: no gradient array is stored.
  parallel_for("dg::gradient_interior_faces", static_cast<int>(faces.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 const int em = faces(f, 0), ep = faces(f, 1), d = faces(f, 2);
                 const int nm = L::volume_node_of(m, 2 * d + 1), np = L::volume_node_of(m, 2 * d);
                 for (int k = 0; k < Eq::ngrad; ++k) {
                   if (!lifted(k)) continue;
                   const Real h = half_jump(g(em, k, nm), g(ep, k, np));
                   SG(em, 2 * d + 1, k, m) = h;   // {g} - g_minus
                   SG(ep, 2 * d, k, m) = -h;      // {g} - g_plus
                 }
               });
}

template <int N, class Eq>
void DgOperator<N, Eq>::gradients_remote(const StateView& q) {
  ScopedTimer timer(timers_, "gradients");
  const auto g = gvars_;
  const auto SG = grad_surface_;
  const auto aux = aux_;
  const auto mpi = mpi_;
  const bool theta = theta_gradient_;
  const Eq eq = eq_;
  const auto pi_ref = exner_ref_;
  const auto recv = halo_->recv_buffer();
  const LiftedGradients<Eq> lifted = lifted_gradients();
  // The neighbour's gradient variables as its own rank forms them (store_gradient_variables_at),
  // with this face point's reference state.
  parallel_for("dg::gradient_mpi_faces", static_cast<int>(mpi.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 const int e = mpi(f, 0), lf = mpi(f, 1);
                 const int n = L::volume_node_of(m, lf);
                 Cons outer;
                 for (int v = 0; v < nvar; ++v) outer[v] = recv(f, v * L::face_nodes + m);
                 const typename Eq::Prim wo = eq.primitive(outer, aux(e, Eq::a_phi, n));
                 const Real exner_o = gradient_exner(eq, pi_ref, e, n, wo.p, aux(e, Eq::a_p_ref, n), theta);
                 const typename Eq::Grad go = eq.gradient_variables(wo, theta, exner_o);
                 for (int k = 0; k < Eq::ngrad; ++k)
                   if (lifted(k)) SG(e, lf, k, m) = half_jump(g(e, k, n), go[k]);
               });
  for_each_wall([&](int wall, const auto& bc) { gradient_wall_faces(q, wall, bc); });
  // Node layout: lift the face terms into the gradients, then the viscous flux at every
  // node, stored (the element layout does this in viscous_fluxes_local, element by element).
  if (kernel_layout_ == KernelLayout::nodes)
    with_closure([&](const auto& closure) { lift_and_viscous_flux(q, closure); });
}

/// g* - g at the faces of one wall, from its boundary-condition type.
template <int N, class Eq>
template <class Condition>
void DgOperator<N, Eq>::gradient_wall_faces(const StateView& q, int wall, const Condition& bc) {
  const auto g = gvars_;
  const auto SG = grad_surface_;
  const auto aux = aux_;
  const auto faces = boundary_;
  const auto th = thermo_;
  const LiftedGradients<Eq> lifted = lifted_gradients();
  const auto metrics = metrics_;
  const bool curved = curved_;
  const Eq eq = eq_;
  const int first = wall_begin_[wall], lf = wall, d = wall / 2;
  parallel_for("dg::gradient_boundary_faces", wall_begin_[wall + 1] - first, L::face_nodes,
               KOKKOS_LAMBDA(const int i, const int m) {
                 const int e = faces(first + i, 0);
                 const int n = L::volume_node_of(m, lf);
                 typename Eq::Grad inner;
                 for (int k = 0; k < Eq::ngrad; ++k) inner[k] = g(e, k, n);
                 const Real p = node_primitive(eq, load<Eq>(q, e, n), aux(e, Eq::a_phi, n), th, e, n).p;
                 // Curved: the wall's values along its unit normal (the terrain's).
                 const typename Eq::Grad jump =
                     curved ? bc.gradient_jump(eq, inner, p, unit_normal(contravariant(metrics, e, n, d)))
                            : bc.gradient_jump(eq, inner, p, d);
                 for (int k = 0; k < Eq::ngrad; ++k)
                   if (lifted(k)) SG(e, lf, k, m) = jump[k];
               });
}

/// f(closure model) with the eddy viscosity model of the chosen closure (one kernel
/// instantiation per closure); the kernels set each element's filter width and model
/// constant (at_element).
template <int N, class Eq>
template <class F>
void DgOperator<N, Eq>::with_closure(const F& f) const {
  switch (closure_) {
    case Closure::constant:
      f(physics::ConstantViscosity{prandtl_t_});
      break;
    case Closure::smagorinsky:  // C_s^2 per element (model_constant)
      f(physics::Smagorinsky{0, prandtl_t_, gravity_});
      break;
    case Closure::vreman:  // c = 2.5 C_s^2 per element
      f(physics::Vreman{0, 0, prandtl_t_});
      break;
  }
}

/// One element of the viscous kernels, read from the views.
struct OneElement {
  using Scalar = Real;
  int e;
};

/// W elements side by side, one per lane of Pack<W> (host backends, core/simd.hpp): the
/// element kernel forms their nodes at once, each lane with OneElement's arithmetic, so
/// with the same bits. What the kernel reads of them node by node is copied from the
/// views into local arrays first, a view's values lane by lane in memory order (a few
/// memory streams at a time instead of one per lane and variable): `gvars` holds their
/// gradient variables and `state` their state, (variable, node); `phi` the geopotential
/// and `exner` Pi(p) per node (where the pointwise pass stored it); `thermo` the
/// pointwise pass's thermo_values, (value, node).
template <int W>
struct ElementPack {
  using Scalar = Pack<W>;
  int e[W];
  const Pack<W>* gvars = nullptr;
  const Pack<W>* state = nullptr;
  const Pack<W>* phi = nullptr;
  const Pack<W>* exner = nullptr;
  const Pack<W>* thermo = nullptr;
};

/// The pointwise types of equation set Eq for one point (S = Real) or a pack of points.
template <class Eq, class S>
struct PointTypes {
  using Cons = typename Eq::Cons;
  using Prim = typename Eq::Prim;
  using Gradients = typename Eq::Gradients;
};
template <class Eq, int W>
struct PointTypes<Eq, Pack<W>> {
  using Cons = typename Eq::template ConsOf<Pack<W>>;
  using Prim = typename Eq::template PrimOf<Pack<W>>;
  using Gradients = typename Eq::template GradientsOf<Pack<W>>;
};

/// The lifted gradients and the viscous flux F_v,d (d = 0, 1, 2; no density component) at
/// one node, with the eddy viscosity of ClosureModel: what every kernel layout computes.
/// The element layout's host kernel calls it on packs of elements (ElementPack): the
/// functions it reaches are templates of the number type, and each lane's arithmetic is
/// that of the element alone.
template <int N, class Eq, class ClosureModel>
struct NodeViscousFlux {
  using L = Layout<N>;
  static constexpr int nvflux = Eq::nvflux, first_viscous = Eq::first_viscous, ngrad = Eq::ngrad;
  DeviceView<Real***> g;    ///< gradient variables (element, var, node)
  DeviceView<Real**> pi;    ///< Pi(p) per node from the gradient pass; empty: evaluate it here
  DeviceView<Real****> sg;  ///< g* - g per element face
  DeviceView<int* [6]> neighbors;  ///< element across each interior face (element layout), else -1; empty: use sg
  StateView q;
  AuxView aux;
  DeviceView<Real***> th;  ///< Eq::thermo_values per node from the pointwise pass (element, node, value)
  Eq eq;
  Basis<N> b;
  Real s0, s1;  ///< 2 / h_d along x and y (curved: 1)
  Real l0, l1;  ///< (2 / h_d) / w_0 along x and y (curved: 1 / w_0)
  DeviceView<Real*> two_over_hz;  ///< 2 / h_z per element
  DeviceView<Real*> width;        ///< the closure's filter width per element
  DeviceView<Real*> model;        ///< the closure's model constant per element (model_constant)
  Real nu, kappa, tracer_diffusivity;
  Real schmidt_t;  ///< nu_t / D_t
  LiftedGradients<Eq> lifted;  ///< the gradient variables lifted (T and theta only where used)
  bool need_exner, theta_diffusion;
  ClosureModel closure;
  bool cloud_interior;  ///< moist air: the closure's saturated N^2 only where the node's element column is all cloudy
  /// Curved elements: s0 = s1 = 1 and l0 = l1 = 1 / w_0 (the reference element's), and
  /// the gradients and fluxes are turned with the metric terms.
  bool curved;
  DeviceView<Real***> metrics;           ///< curved: J a^i per node (Geometry::metrics)
  DeviceView<Real**> inverse_jacobian;   ///< curved: 1 / J per node
  /// A batch: each element's largest total diffusivity (zero before the pass), for each
  /// member's own time step; empty otherwise.
  DeviceView<Real*> element_max;

  /// Fills f[d][v - first_viscous] with component v of F_v,d at node (i, j, k) of
  /// element e and returns the node's largest total diffusivity max(nu + nu_t,
  /// kappa + kappa_t, and with tracers D + D_t).
  KOKKOS_FORCEINLINE_FUNCTION Real operator()(int e, int i, int j, int k, Real (&f)[3][nvflux]) const {
    return (*this)(OneElement{e}, i, j, k, f);
  }
  /// The same for one element or a pack of elements r.
  template <class R, class S = typename R::Scalar>
  KOKKOS_FORCEINLINE_FUNCTION S operator()(const R& r, int i, int j, int k, S (&f)[3][nvflux]) const {
    // A local copy of the gas constants: the stores into f cannot alias it, so they stay
    // in registers across the node's fluxes.
    const Eq local = eq;
    const NodeOf<S> node = at(local, r, i, j, k);
    const auto& gr = node.gr;
    const auto& w = node.w;
    store<0>(local, w, gr, node.nu_total, node.kappa_total, node.tracer_total, node.exner_p, f);
    store<1>(local, w, gr, node.nu_total, node.kappa_total, node.tracer_total, node.exner_p, f);
    store<2>(local, w, gr, node.nu_total, node.kappa_total, node.tracer_total, node.exner_p, f);
    if constexpr (std::is_same_v<R, OneElement>) {
      if (curved) {  // the contravariant components J a^D . F_v
        const int n = L::node(i, j, k);
        Real ja[3][3];
        for (int d = 0; d < 3; ++d)
          for (int x = 0; x < 3; ++x) ja[d][x] = metrics(r.e, 3 * d + x, n);
        for (int v = 0; v < nvflux; ++v) {
          const Real f0 = f[0][v], f1 = f[1][v], f2 = f[2][v];
          for (int d = 0; d < 3; ++d) f[d][v] = ja[d][0] * f0 + ja[d][1] * f1 + ja[d][2] * f2;
        }
      }
    }
    S largest = math::max(node.nu_total, node.kappa_total);
    if constexpr (Eq::ntracers > 0) largest = math::max(largest, node.tracer_total);
    if (element_max.extent(0) > 0) note_max(r, largest);
    return largest;
  }
  /// What a node's viscous fluxes are formed from: its lifted gradients, primitive
  /// variables, Pi(p) and the total diffusivities (molecular and eddy).
  template <class S>
  struct NodeOf {
    typename PointTypes<Eq, S>::Gradients gr;
    typename PointTypes<Eq, S>::Prim w;
    S exner_p, nu_t, nu_total, kappa_total, tracer_total;
  };
  using Node = NodeOf<Real>;
  template <class R, class S = typename R::Scalar>
  KOKKOS_FORCEINLINE_FUNCTION NodeOf<S> at(const Eq& local, const R& r, int i, int j, int k) const {
    NodeOf<S> node;
    gradient_along<0>(r, i, j, k, S(s0), S(l0), node.gr);
    gradient_along<1>(r, i, j, k, S(s1), S(l1), node.gr);
    const S s2 = curved ? S(1) : per_element(two_over_hz, r);
    gradient_along<2>(r, i, j, k, s2, s2 / b.w[0], node.gr);
    const int n = L::node(i, j, k);
    if constexpr (std::is_same_v<R, OneElement>)
      if (curved) to_physical(node.gr, r.e, n);
    node.w = primitive_at(local, r, n);
    node.exner_p = !need_exner ? S(1) : pi.extent(0) > 0 ? stored_exner(r, n) : local.exner(node.w.p);
    node.nu_t = closure.at_element(per_element(width, r), per_element(model, r))
                    .nu_t(local, node.w, node.exner_p, node.gr, cloud_edge(r, i, j));
    node.nu_total = nu + node.nu_t, node.kappa_total = kappa + node.nu_t / closure.prandtl_t;
    node.tracer_total = Eq::ntracers > 0 ? tracer_diffusivity + node.nu_t / schmidt_t : S(0);
    return node;
  }
  KOKKOS_FORCEINLINE_FUNCTION Node at(const Eq& local, int e, int i, int j, int k) const {
    return at(local, OneElement{e}, i, j, k);
  }

  /// Column D of the gradients at node (i, j, k): (2/h_D) D g along D, plus at the faces
  /// normal to D the lifted face term (face_terms). Only the gradients of T and theta
  /// that are used are formed (and those of the scalars, q_t and the tracers, always).
  /// D is a compile-time direction so that the gradient's components stay in registers.
  template <int D, class R, class S, class Gr>
  KOKKOS_FORCEINLINE_FUNCTION void gradient_along(const R& r, int i, int j, int k, const S& scale, const S& lift,
                                                  Gr& gr) const {
    const int index = D == 0 ? i : D == 1 ? j : k;
    S extra[ngrad] = {};
    if (index == 0 || index == N) face_terms<D>(r, i, j, k, lift, extra);
    constexpr int iT = Eq::g_T, itheta = Eq::g_theta;
    const auto gv = [&](int, int c, int n) { return gvar(r, c, n); };
    S volume[ngrad] = {};
    for (int c = 0; c < 3; ++c) volume[c] = scale * derivative_at(b, gv, 0, c, i, j, k, D);
    if (lifted(iT)) volume[iT] = scale * derivative_at(b, gv, 0, iT, i, j, k, D);
    if (lifted(itheta)) volume[itheta] = scale * derivative_at(b, gv, 0, itheta, i, j, k, D);
    for (int c = 0; c < 3; ++c) gr.du[c][D] = volume[c] + extra[c];
    gr.dT[D] = volume[iT] + extra[iT];
    gr.dtheta[D] = volume[itheta] + extra[itheta];
    if constexpr (Eq::nscalars > 0)
      for (int t = 0; t < Eq::nscalars; ++t) {
        const int c = Eq::g_scalar + t;
        gr.dc[t][D] = scale * derivative_at(b, gv, 0, c, i, j, k, D) + extra[c];
      }
  }
  /// The lifted face term of column D at node (i, j, k) of element e, on its face
  /// normal to D: (outward normal sign) (2/h_D) / w_0 (g* - g), `lift` = (2/h_D) / w_0.
  /// With a neighbour table (element layout), g* - g on interior faces is formed here
  /// from both elements' values, as gradients_local forms it ({g} - g: the half jump, the
  /// minus side being the element whose high face it is); on other faces it comes from sg.
  template <int D>
  KOKKOS_FORCEINLINE_FUNCTION void face_terms(const OneElement& r, int i, int j, int k, Real lift,
                                              Real (&extra)[ngrad]) const {
    const int e = r.e;
    const int index = D == 0 ? i : D == 1 ? j : k;
    const int lf = 2 * D + (index == N ? 1 : 0);
    const Real sign = index == N ? 1 : -1;  // outward normal of the face along D
    const int other = neighbors.extent(0) > 0 ? neighbors(e, lf) : -1;
    if (other >= 0) {
      const int n = L::node(i, j, k);
      const int across = D == 0 ? L::node(N - i, j, k) : D == 1 ? L::node(i, N - j, k) : L::node(i, j, N - k);
      for (int c = 0; c < ngrad; ++c) {
        if (!lifted(c)) continue;  // extra[c] stays zero: the gradient it would feed is unused
        // as gradients_local forms it: h of the minus side, -h on the plus side
        const Real h = index == N ? half_jump(g(e, c, n), g(other, c, across))   // e is the minus side
                                  : half_jump(g(other, c, across), g(e, c, n));  // e is the plus side
        extra[c] = sign * lift * (index == N ? h : -h);
      }
    } else {
      const int m = D == 0 ? j + (N + 1) * k : D == 1 ? i + (N + 1) * k : i + (N + 1) * j;  // its face node
      for (int c = 0; c < ngrad; ++c)
        if (lifted(c)) extra[c] = sign * lift * sg(e, lf, c, m);
    }
  }
  /// A pack's: each lane's as its element's alone.
  template <int D, int W>
  void face_terms(const ElementPack<W>& r, int i, int j, int k, const Pack<W>& lift, Pack<W> (&extra)[ngrad]) const {
    Real one[W][ngrad] = {};
    for (int l = 0; l < W; ++l) face_terms<D>(OneElement{r.e[l]}, i, j, k, lift[l], one[l]);
    for (int c = 0; c < ngrad; ++c) extra[c] = Pack<W>::gather([&](int l) { return one[l][c]; });
  }

  // What the kernels read and write of one element or of a pack (lane by lane).
  KOKKOS_FORCEINLINE_FUNCTION Real gvar(const OneElement& r, int c, int n) const { return g(r.e, c, n); }
  template <int W>
  Pack<W> gvar(const ElementPack<W>& r, int c, int n) const {
    return r.gvars[c * L::nodes + n];
  }
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION static Real per_element(const V& v, const OneElement& r) {
    return v(r.e);
  }
  template <class V, int W>
  static Pack<W> per_element(const V& v, const ElementPack<W>& r) {
    return Pack<W>::gather([&](int l) { return v(r.e[l]); });
  }
  KOKKOS_FORCEINLINE_FUNCTION typename Eq::Prim primitive_at(const Eq& local, const OneElement& r, int n) const {
    return node_primitive(local, load<Eq>(q, r.e, n), aux(r.e, Eq::a_phi, n), th, r.e, n);
  }
  template <int W>
  typename PointTypes<Eq, Pack<W>>::Prim primitive_at(const Eq& local, const ElementPack<W>& r, int n) const {
    typename PointTypes<Eq, Pack<W>>::Cons s;
    for (int v = 0; v < Eq::nvar; ++v) s[v] = r.state[v * L::nodes + n];
    if constexpr (Eq::nthermo > 0)  // as node_primitive: the pointwise pass's thermo_values
      return local.primitive_from(s, r.phi[n], [&](int k) { return r.thermo[k * L::nodes + n]; });
    else
      return local.primitive(s, r.phi[n]);
  }
  /// Pi(p) of node n as the gradient pass stored it.
  KOKKOS_FORCEINLINE_FUNCTION Real stored_exner(const OneElement& r, int n) const { return pi(r.e, n); }
  template <int W>
  Pack<W> stored_exner(const ElementPack<W>& r, int n) const {
    return r.exner[n];
  }
  KOKKOS_FORCEINLINE_FUNCTION void note_max(const OneElement& r, Real largest) const {
    Kokkos::atomic_fetch_max(&element_max(r.e), largest);  // exact: any order
  }
  template <int W>
  void note_max(const ElementPack<W>& r, const Pack<W>& largest) const {
    for (int l = 0; l < W; ++l) Kokkos::atomic_fetch_max(&element_max(r.e[l]), largest[l]);
  }

  /// Curved elements: the gradients from their reference components (along xi_D, in
  /// the slots of direction D), grad = (1/J) sum_D (J a^D) d/dxi_D.
  KOKKOS_FORCEINLINE_FUNCTION void to_physical(typename Eq::Gradients& gr, int e, int n) const {
    Real ja[3][3];
    for (int d = 0; d < 3; ++d)
      for (int x = 0; x < 3; ++x) ja[d][x] = metrics(e, 3 * d + x, n);
    const Real inv_j = inverse_jacobian(e, n);
    const auto turn = [&](Real(&v)[3]) {
      const Real r0 = v[0], r1 = v[1], r2 = v[2];
      for (int x = 0; x < 3; ++x) v[x] = inv_j * (ja[0][x] * r0 + ja[1][x] * r1 + ja[2][x] * r2);
    };
    for (int c = 0; c < 3; ++c) turn(gr.du[c]);
    turn(gr.dT);
    turn(gr.dtheta);
    if constexpr (Eq::nscalars > 0)
      for (int t = 0; t < Eq::nscalars; ++t) turn(gr.dc[t]);
  }
  /// Whether the z line (i, j) of element e, whose nodes form the node's vertical
  /// gradients, has a node without condensate (physics.cloud_stratification = "interior").
  KOKKOS_FORCEINLINE_FUNCTION bool cloud_edge(const OneElement& r, int i, int j) const {
    if constexpr (Eq::moist) {
      if (!cloud_interior) return false;
      for (int k = 0; k < L::n1; ++k) {
        const int n = L::node(i, j, k);
        // thermo_values: T, q_l and, with ice, q_i
        if (!(th(r.e, n, 1) + (th.extent(2) > 2 ? th(r.e, n, 2) : Real(0)) > 0)) return true;
      }
    }
    return false;
  }
  /// A pack's: moist air's lane by lane (a Mask), dry air's none.
  template <int W>
  auto cloud_edge(const ElementPack<W>& r, int i, int j) const {
    if constexpr (Eq::moist)
      return Mask<W>::gather([&](int l) { return cloud_edge(OneElement{r.e[l]}, i, j); });
    else
      return false;
  }
  /// The subgrid (eddy and molecular) vertical fluxes at node (i, j, k) of element e in
  /// kinematic units, in the order of SubgridFlux: nu_t; -nu_total (du/dz + dw/dx) and
  /// the same for v; the heat flux over rho c_p Pi (-kappa_total Pi dtheta/dz or
  /// -kappa_total dT/dz, each over Pi: a flux of theta, or of theta_li in moist air); its
  /// theta_rho flux (A and B of the moist stratification; theta's itself in dry air);
  /// -kappa_total dq_t/dz and -D_total dc/dz of the scalars.
  KOKKOS_FORCEINLINE_FUNCTION void subgrid(int e, int i, int j, int k, Real* out) const {
    const Eq local = eq;
    const Node node = at(local, e, i, j, k);
    const auto& gr = node.gr;
    out[SubgridFlux::nu_t] = node.nu_t;
    out[SubgridFlux::u_w] = -node.nu_total * (gr.du[0][2] + gr.du[2][0]);
    out[SubgridFlux::v_w] = -node.nu_total * (gr.du[1][2] + gr.du[2][1]);
    const Real pi_p = need_exner ? node.exner_p : local.exner(node.w.p);
    const Real heat = theta_diffusion ? gr.dtheta[2] : gr.dT[2] / pi_p;
    out[SubgridFlux::w_theta] = -node.kappa_total * heat;
    out[SubgridFlux::w_theta_rho] = out[SubgridFlux::w_theta];
    if constexpr (Eq::nscalars > 0)
      for (int t = 0; t < Eq::nscalars; ++t)
        out[SubgridFlux::w_scalar + t] = -(Eq::moist && t == 0 ? node.kappa_total : node.tracer_total) * gr.dc[t][2];
    if constexpr (Eq::moist) {
      // d theta_rho = A d theta_li + B dq_t holds for fluxes as for gradients: N^2 of
      // the fluxes with g = 1, times theta_rho.
      typename Eq::Gradients fluxes{};
      fluxes.dtheta[2] = out[SubgridFlux::w_theta];
      fluxes.dc[0][2] = out[SubgridFlux::w_scalar];
      out[SubgridFlux::w_theta_rho] = local.buoyancy_frequency_squared(node.w, pi_p, fluxes, Real(1)) *
                                      local.thermo.density_potential_temperature(node.w.T, pi_p, node.w.partition());
    }
  }
  template <int D, class P, class G, class S>
  KOKKOS_FORCEINLINE_FUNCTION void store(const Eq& local, const P& w, const G& gr, const S& nu_total,
                                         const S& kappa_total, const S& tracer_total, const S& exner_p,
                                         S (&f)[3][nvflux]) const {
    const auto fd = local.viscous_flux(w, gr, nu_total, kappa_total, tracer_total, D, theta_diffusion, exner_p);
    for (int v = first_viscous; v < Eq::nvar; ++v) f[D][v - first_viscous] = fd[v];
  }
};

template <int N, class Eq>
template <class ClosureModel>
NodeViscousFlux<N, Eq, ClosureModel> DgOperator<N, Eq>::node_viscous_flux(const StateView& q,
                                                                          const ClosureModel& closure) const {
  const Real s0 = curved_ ? Real(1) : two_over_h_[0], s1 = curved_ ? Real(1) : two_over_h_[1];
  NodeViscousFlux<N, Eq, ClosureModel> nv{gvars_, exner_, grad_surface_, neighbors_, q, aux_, thermo_, eq_, basis_,
                                      s0, s1, s0 / basis_.w[0], s1 / basis_.w[0], two_over_hz_, filter_width_, model_constant_,
                                      viscosity_,
                                      diffusivity_, tracer_diffusivity_,
                                      schmidt_t_,
                                      lifted_gradients(),
                                      // Pi(p) once per node, for theta diffusion and Smagorinsky's
                                      // N^2, which gravity 0 makes 0 whatever theta is (the
                                      // same bits with Pi = 1, without a pow per node).
                                      theta_diffusion_ || (closure_ == Closure::smagorinsky && gravity_ != 0),
                                      theta_diffusion_,
                                      closure, cloud_interior_, curved_, metrics_, inverse_jacobian_,
                                      element_diffusivity_};
  return nv;
}

/// Node layout: F_v at every node into the viscous flux array; returns the largest total
/// diffusivity.
template <int N, class Eq>
template <class ClosureModel>
void DgOperator<N, Eq>::lift_and_viscous_flux(const StateView& q, const ClosureModel& closure) {
  const auto nv = node_viscous_flux(q, closure);
  const auto FV = vflux_;
  max_diffusivity_ = parallel_max_nodes<L::n1>("dg::gradient_lift_viscous_flux", elements_,
                                              KOKKOS_LAMBDA(const int e, const int i, const int j, const int k) {
    Real f[3][nvflux];
    const Real largest = nv(e, i, j, k, f);
    const int n = L::node(i, j, k);
    for (int d = 0; d < 3; ++d)
      for (int v = first_viscous; v < nvar; ++v) FV(e, vflux_index<Eq>(d, v), n) = f[d][v - first_viscous];
    return largest;
  });
}

template <int N, class Eq>
void DgOperator<N, Eq>::subgrid_fluxes(Real t, const FlatView& q_flat, const FlatView& scratch,
                                       const DeviceView<Real***>& out) {
  if (!viscous_) throw RunError("subgrid fluxes need the viscous terms (physics.viscosity > 0 or a closure)");
  evaluate_for_diagnostics(t, q_flat, scratch);  // the gradient variables and face terms of q
  const bool was_paused = timers_.pause(true);
  const StateView q = state_view(q_flat);
  with_closure([&](const auto& closure) { subgrid_flux_nodes(q, closure, out); });
  Kokkos::fence();
  timers_.pause(was_paused);
}

template <int N, class Eq>
void DgOperator<N, Eq>::evaluate_for_diagnostics(Real t, const FlatView& q_flat, const FlatView& scratch) {
  const Real kept_diffusivity = max_diffusivity_;
  const bool kept_evaluated = evaluated_;
  DeviceView<Real*> kept_elements;  // a batch's per-element diffusivities
  if (element_diffusivity_.extent(0) > 0) {
    kept_elements = DeviceView<Real*>("dg::kept_element_diffusivity", element_diffusivity_.extent(0));
    Kokkos::deep_copy(kept_elements, element_diffusivity_);
  }
  const std::vector<double> kept_rates = ledger_rates_;
  const bool was_paused = timers_.pause(true);  // not a step: out of the phase times
  (*this)(t, q_flat, scratch);
  Kokkos::fence();
  timers_.pause(was_paused);
  max_diffusivity_ = kept_diffusivity;
  evaluated_ = kept_evaluated;
  if (kept_elements.extent(0) > 0) Kokkos::deep_copy(element_diffusivity_, kept_elements);
  ledger_rates_ = kept_rates;
}

/// The kernel of subgrid_fluxes (a member function: CUDA allows no device lambda in a
/// generic lambda).
template <int N, class Eq>
template <class ClosureModel>
void DgOperator<N, Eq>::subgrid_flux_nodes(const StateView& q, const ClosureModel& closure,
                                           const DeviceView<Real***>& out) const {
  const auto nv = node_viscous_flux(q, closure);
  parallel_for_nodes<L::n1>("dg::subgrid_fluxes", elements_,
                           KOKKOS_LAMBDA(const int e, const int i, const int j, const int k) {
    Real values[SubgridFlux::count<Eq>];
    nv.subgrid(e, i, j, k, values);
    const int n = L::node(i, j, k);
    for (int c = 0; c < SubgridFlux::count<Eq>; ++c) out(e, c, n) = values[c];
  });
}

/// Which element-layout viscous kernel order N uses (ViscousElementKernel): by planes, an
/// element keeps 8 values per node in local arrays instead of 12, plus the traces of
/// F_v,0 and F_v,1 (at N = 5, 18 instead of 21 KiB, beside its 26 KiB of q, g and dq),
/// and writes its traces face by face. With GCC 12 on a Xeon it measured 4-10 % faster
/// per step at N = 2, 3, 5 and 6 (docs/performance.md, fifth round), and 10 % faster at
/// N = 4 too in the twelfth round, where the whole-element method (kept for comparison)
/// had become 38 % slower per step than in the fifth.
template <int N>
inline constexpr bool viscous_by_planes = true;

/// The element layout's viscous kernel, one element e = list(t) per call: the lifted
/// gradients and F_v of each node, its traces on the element's faces (what the face
/// kernels and the halo read) into T, and dq += (2/h_d) D F_v,d; returns the largest
/// total diffusivity. The same bits as lift_and_viscous_flux followed by the node
/// layout's volume term, by either method.
template <int N, class Eq, class ClosureModel>
struct ViscousElementKernel {
  using L = Layout<N>;
  static constexpr int nvar = Eq::nvar, nvflux = Eq::nvflux, first_viscous = Eq::first_viscous;
  NodeViscousFlux<N, Eq, ClosureModel> nv;
  DeviceView<Real****> T;  ///< F_v,d on the faces normal to d (element, face, v - 1, face node)
  StateView dq;
  DeviceView<int*> list;
  Basis<N> b;
  Real s0, s1;                    ///< 2 / h_d along x and y (curved: 1)
  DeviceView<Real*> two_over_hz;  ///< 2 / h_z per element (curved: unused, 1)

  KOKKOS_INLINE_FUNCTION Real operator()(const int t) const {
    if constexpr (viscous_by_planes<N>)
      return by_planes(t);
    else
      return whole(t);
  }

  /// The element's whole F_v (12 values per node) in a local array.
  KOKKOS_INLINE_FUNCTION Real whole(const int t) const {
    constexpr int n1 = L::n1;
    const int e = list(t);
    Real fv[3 * nvflux][L::nodes];  // F_v of the element: (vflux_index<Eq>(d, v), node)
    Real largest = 0;
    for (int k = 0; k < n1; ++k)
      for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i) {
          Real f[3][nvflux];
          largest = math::max(largest, nv(e, i, j, k, f));
          const int n = L::node(i, j, k);
          for (int d = 0; d < 3; ++d)
            for (int v = first_viscous; v < nvar; ++v) fv[vflux_index<Eq>(d, v)][n] = f[d][v - first_viscous];
        }
    // F_v,d on the two faces normal to d, for the face kernels and the halo.
    for (int lf = 0; lf < 6; ++lf)
      for (int v = first_viscous; v < nvar; ++v)
        for (int m = 0; m < L::face_nodes; ++m)
          T(e, lf, v - first_viscous, m) = fv[vflux_index<Eq>(lf / 2, v)][L::volume_node_of(m, lf)];
    const auto local = [&](int, int c, int n) { return fv[c][n]; };
    const Real s2 = nv.curved ? Real(1) : two_over_hz(e);
    for (int k = 0; k < n1; ++k)
      for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i) {
          const int n = L::node(i, j, k);
          for (int v = first_viscous; v < nvar; ++v) {
            const Real sum = viscous_divergence<Eq>(b, local, e, v, i, j, k, s0, s1, s2);
            dq(e, v, n) += nv.curved ? nv.inverse_jacobian(e, n) * sum : sum;
          }
        }
    return largest;
  }

  /// Plane by plane (k): F_v,0 and F_v,1 of a plane are differentiated within the plane
  /// as soon as they are formed, so only F_v,2 and the partial sums are kept for the
  /// whole element (and the traces of F_v,0 and F_v,1 on their faces).
  KOKKOS_INLINE_FUNCTION Real by_planes(const int t) const { return by_planes(OneElement{list(t)}); }
  /// The same for one element or a pack of elements r (ElementPack, host backends).
  template <class R, class S = typename R::Scalar>
  KOKKOS_INLINE_FUNCTION S by_planes(const R& r) const {
    constexpr int n1 = L::n1, np = L::face_nodes;
    const int e = 0;  // the accessors below read r's elements
    S fz[nvflux][L::nodes];       // F_v,2 of the element
    S partial[nvflux][L::nodes];  // (2/h_0) D F_v,0 + (2/h_1) D F_v,1, summed as below
    S side[4][nvflux][np];        // F_v on faces 0-3, written out in one sweep at the end
    S largest = 0;
    for (int k = 0; k < n1; ++k) {
      S fx[nvflux][np], fy[nvflux][np];  // F_v,0 and F_v,1 of plane k
      for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i) {
          S f[3][nvflux];
          largest = math::max(largest, nv(r, i, j, k, f));
          const int p = i + n1 * j;
          for (int v = 0; v < nvflux; ++v) {
            fx[v][p] = f[0][v];
            fy[v][p] = f[1][v];
            fz[v][p + np * k] = f[2][v];
          }
        }
      for (int v = 0; v < nvflux; ++v)  // the traces on the faces normal to 0 and 1
        for (int a = 0; a < n1; ++a) {
          side[0][v][a + n1 * k] = fx[v][0 + n1 * a];
          side[1][v][a + n1 * k] = fx[v][N + n1 * a];
          side[2][v][a + n1 * k] = fy[v][a];
          side[3][v][a + n1 * k] = fy[v][a + n1 * N];
        }
      const auto in_x = [&](int, int c, int n) { return fx[c][n - np * k]; };
      const auto in_y = [&](int, int c, int n) { return fy[c][n - np * k]; };
      for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i)
          for (int v = 0; v < nvflux; ++v) {
            S sum = 0;  // viscous_divergence, in two parts
            sum += s0 * derivative_at(b, in_x, e, v, i, j, k, 0);
            sum += s1 * derivative_at(b, in_y, e, v, i, j, k, 1);
            partial[v][L::node(i, j, k)] = sum;
          }
    }
    // The traces face by face, in memory order (faster than plane by plane).
    for (int lf = 0; lf < 4; ++lf)
      for (int v = 0; v < nvflux; ++v)
        for (int m = 0; m < np; ++m) put_trace(r, lf, v, m, side[lf][v][m]);
    for (int lf = 4; lf < 6; ++lf)
      for (int v = 0; v < nvflux; ++v)
        for (int m = 0; m < np; ++m) put_trace(r, lf, v, m, fz[v][m + (lf == 4 ? 0 : np * N)]);
    const auto along_z = [&](int, int c, int n) { return fz[c][n]; };
    const S s2 = nv.curved ? S(1) : nv.per_element(two_over_hz, r);
    for (int k = 0; k < n1; ++k)
      for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i) {
          const int n = L::node(i, j, k);
          for (int v = first_viscous; v < nvar; ++v) {
            S sum = partial[v - first_viscous][n];
            sum += s2 * derivative_at(b, along_z, e, v - first_viscous, i, j, k, 2);
            partial[v - first_viscous][n] = sum;
          }
        }
    add_divergences(r, partial);
    return largest;
  }
  /// F_v's trace (face lf, component v, face node m) of one element or a pack's.
  KOKKOS_FORCEINLINE_FUNCTION void put_trace(const OneElement& r, int lf, int v, int m, Real value) const {
    T(r.e, lf, v, m) = value;
  }
  template <int W>
  void put_trace(const ElementPack<W>& r, int lf, int v, int m, const Pack<W>& value) const {
    for (int l = 0; l < W; ++l) T(r.e[l], lf, v, m) = value[l];
  }
  /// dq += the viscous divergences `sum` (v - first_viscous, node; curved: over J).
  KOKKOS_FORCEINLINE_FUNCTION void add_divergences(const OneElement& r, const Real (&sum)[nvflux][L::nodes]) const {
    for (int v = first_viscous; v < nvar; ++v)
      for (int n = 0; n < L::nodes; ++n) {
        const Real s = sum[v - first_viscous][n];
        dq(r.e, v, n) += nv.curved ? nv.inverse_jacobian(r.e, n) * s : s;
      }
  }
  template <int W>
  void add_divergences(const ElementPack<W>& r, const Pack<W> (&sum)[nvflux][L::nodes]) const {
    // Element by element and component by component, in memory order (packs are not
    // formed on curved meshes).
    for (int l = 0; l < W; ++l)
      for (int v = first_viscous; v < nvar; ++v) {
        Real* const out = &dq(r.e[l], v, 0);
        for (int n = 0; n < L::nodes; ++n) out[n] += sum[v - first_viscous][n][l];
      }
  }
};

/// The team layout's viscous kernel (KernelLayout::teams), one team per element e =
/// list(league rank): the team's threads form the lifted gradients and F_v of the nodes
/// into the team's scratch memory, then F_v's traces on the element's faces (into T, as
/// the element layout writes them) and dq += (2/h_d) D F_v,d node by node; returns the
/// largest total diffusivity. Each node's arithmetic is the node layout's and the
/// whole-element method's, so the bits are theirs (tested on every backend, a host one
/// running teams of one thread).
template <int N, class Eq, class ClosureModel>
struct ViscousTeamKernel {
  using L = Layout<N>;
  using Scratch = Kokkos::View<Real**, ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int nvar = Eq::nvar, nvflux = Eq::nvflux, first_viscous = Eq::first_viscous;
  ViscousElementKernel<N, Eq, ClosureModel> k;  ///< what the element layout's kernel reads and writes

  /// F_v of one element: (vflux_index<Eq>(d, v), node).
  static std::size_t scratch_bytes() { return Scratch::shmem_size(3 * nvflux, L::nodes); }

  /// F_v of the element in scratch, as viscous_divergence reads it.
  struct InScratch {
    Scratch fv;
    KOKKOS_INLINE_FUNCTION Real operator()(int, int c, int n) const { return fv(c, n); }
  };

  /// The team's threads take the nodes (and face values) in turn, thread r of a team of
  /// s the items r, r + s, ... (no nested lambdas: nothing is captured by reference).
  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team, Real& largest) const {
    constexpr int n1 = L::n1, per_face = nvflux * L::face_nodes;
    const int first = team.team_rank(), stride = team.team_size();
    const int e = k.list(team.league_rank());
    const InScratch local{Scratch(team.team_scratch(0), 3 * nvflux, L::nodes)};
    Real mine = 0;  // this thread's largest diffusivity; the reduction joins the threads'
    for (int n = first; n < L::nodes; n += stride) {
      Real f[3][nvflux];
      const Real d = k.nv(e, n % n1, (n / n1) % n1, n / (n1 * n1), f);
      if (d > mine) mine = d;
      for (int x = 0; x < 3; ++x)
        for (int c = 0; c < nvflux; ++c) local.fv(x * nvflux + c, n) = f[x][c];
    }
    team.team_barrier();
    // F_v,d on the two faces normal to d, face node fastest (contiguous in T).
    for (int x = first; x < 6 * per_face; x += stride) {
      const int lf = x / per_face, c = (x / L::face_nodes) % nvflux, m = x % L::face_nodes;
      k.T(e, lf, c, m) = local.fv((lf / 2) * nvflux + c, L::volume_node_of(m, lf));
    }
    const Real s2 = k.nv.curved ? Real(1) : k.two_over_hz(e);
    for (int n = first; n < L::nodes; n += stride) {
      const int i = n % n1, j = (n / n1) % n1, l = n / (n1 * n1);
      for (int v = first_viscous; v < nvar; ++v) {
        const Real sum = viscous_divergence<Eq>(k.b, local, e, v, i, j, l, k.s0, k.s1, s2);
        k.dq(e, v, n) += k.nv.curved ? k.nv.inverse_jacobian(e, n) * sum : sum;
      }
    }
    // Every thread is done with the scratch before the team takes its next element.
    team.team_barrier();
    if (mine > largest) largest = mine;
  }
};

/// The element layout's viscous kernel on host backends, W elements of `list` at once
/// (ElementPack: one per vector lane) for each index t; the last, partial pack one by one.
/// Each lane's arithmetic is ViscousElementKernel's for its element alone, so the bits
/// are the same (the operator test compares them).
template <int N, class Eq, class ClosureModel, int W>
struct ViscousPackKernel {
  using L = Layout<N>;
  ViscousElementKernel<N, Eq, ClosureModel> k;
  int count;  ///< elements in k.list

  static int packs(int count) { return (count + W - 1) / W; }

  Real operator()(const int t) const {
    const int first = W * t;
    Real largest = 0;
    if (first + W > count) {
      for (int x = first; x < count; ++x) largest = math::max(largest, k.by_planes(OneElement{k.list(x)}));
      return largest;
    }
    ElementPack<W> r;
    for (int l = 0; l < W; ++l) r.e[l] = k.list(first + l);
    // The pack's gradient variables side by side: the derivatives read them N + 1 times
    // per node and direction.
    Pack<W> g[Eq::ngrad * L::nodes];
    for (int c = 0; c < Eq::ngrad; ++c)
      for (int n = 0; n < L::nodes; ++n)
        g[c * L::nodes + n] = Pack<W>::gather([&](int l) { return k.nv.g(r.e[l], c, n); });
    r.gvars = g;
    // The state, geopotential, stored Pi(p) and thermo_values the nodes' primitive
    // variables are formed from, in the same way.
    const auto& nv = k.nv;
    Pack<W> state[Eq::nvar * L::nodes], phi[L::nodes];
    for (int v = 0; v < Eq::nvar; ++v)
      for (int n = 0; n < L::nodes; ++n)
        state[v * L::nodes + n] = Pack<W>::gather([&](int l) { return nv.q(r.e[l], v, n); });
    for (int n = 0; n < L::nodes; ++n) phi[n] = Pack<W>::gather([&](int l) { return nv.aux(r.e[l], Eq::a_phi, n); });
    r.state = state, r.phi = phi;
    Pack<W> exner[L::nodes];
    if (nv.need_exner && nv.pi.extent(0) > 0) {
      for (int n = 0; n < L::nodes; ++n) exner[n] = Pack<W>::gather([&](int l) { return nv.pi(r.e[l], n); });
      r.exner = exner;
    }
    Pack<W> thermo[Eq::nthermo > 0 ? Eq::nthermo * L::nodes : 1];
    if constexpr (Eq::nthermo > 0) {
      const int stored = static_cast<int>(nv.th.extent(2));  // eq.thermo_count()
      for (int n = 0; n < L::nodes; ++n)
        for (int x = 0; x < stored; ++x)
          thermo[x * L::nodes + n] = Pack<W>::gather([&](int l) { return nv.th(r.e[l], n, x); });
      r.thermo = thermo;
    }
    const Pack<W> lanes = k.by_planes(r);
    for (int l = 0; l < W; ++l) largest = math::max(largest, lanes[l]);
    return largest;
  }
};

/// Element and team layouts: ViscousElementKernel (by packs of elements where they
/// apply: OperatorOptions::element_packs) or ViscousTeamKernel for the elements in
/// `list`; returns the largest total diffusivity.
template <int N, class Eq>
template <class ClosureModel>
Real DgOperator<N, Eq>::lift_viscous_volume(const StateView& q, const StateView& dq, const ClosureModel& closure,
                                        const DeviceView<int*>& list) {
  const auto nv = node_viscous_flux(q, closure);
  const ViscousElementKernel<N, Eq, ClosureModel> kernel{nv, vtrace_, dq, list, basis_, nv.s0, nv.s1, two_over_hz_};
  if (kernel_layout_ == KernelLayout::teams) {
    using Team = ViscousTeamKernel<N, Eq, ClosureModel>;
    return parallel_max_teams("dg::lift_viscous_volume_teams", static_cast<int>(list.extent(0)),
                              Team::scratch_bytes(), Team{kernel});
  }
  if constexpr (host_backend) {
    if (element_packs_ && !curved_) {
      using Packs = ViscousPackKernel<N, Eq, ClosureModel, pack_width>;
      const int count = static_cast<int>(list.extent(0));
      return parallel_max("dg::lift_viscous_volume_packs", Packs::packs(count), Packs{kernel, count});
    }
  }
  return parallel_max("dg::lift_viscous_volume", static_cast<int>(list.extent(0)), kernel);
}

template <int N, class Eq>
void DgOperator<N, Eq>::viscous_fluxes_local(const StateView& q, const StateView& dq) {
  ScopedTimer timer(timers_, "viscous");
  const auto FV = vflux_;
  const auto T = viscous_traces();
  const auto S = surface_;
  const auto mpi = mpi_;
  const auto interior = interior_;
  // Element layout: first the elements on MPI faces, whose traces the neighbours wait for.
  if (kernel_layout_ != KernelLayout::nodes)
    with_closure([&](const auto& closure) { max_diffusivity_ = lift_viscous_volume(q, dq, closure, halo_elements_); });
  // Start the exchange of this rank's viscous flux traces (normal component).
  const auto send = viscous_halo_->send_buffer();
  parallel_for("dg::pack_viscous_halo", static_cast<int>(mpi.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 for (int v = first_viscous; v < nvar; ++v)
                   send(f, (v - first_viscous) * L::face_nodes + m) = T(mpi(f, 0), mpi(f, 1), v, m);
               });
  viscous_halo_->start();
  // Volume: dq += (2/h_d) D F_v,d (element and team layouts: the other elements, lifting
  // included).
  if (kernel_layout_ != KernelLayout::nodes) {
    with_closure([&](const auto& closure) {
      max_diffusivity_ = math::max(max_diffusivity_, lift_viscous_volume(q, dq, closure, inner_elements_));
    });
  } else {
    const Basis<N> b = basis_;
    const bool curved = curved_;
    const Real s0 = curved ? Real(1) : two_over_h_[0], s1 = curved ? Real(1) : two_over_h_[1];
    const auto hz = two_over_hz_;
    const auto inverse_jacobian = inverse_jacobian_;
    parallel_for_nodes<L::n1>("dg::viscous_volume", elements_,
                             KOKKOS_LAMBDA(const int e, const int i, const int j, const int k) {
      const int n = L::node(i, j, k);
      const Real s2 = curved ? Real(1) : hz(e);
      for (int v = first_viscous; v < nvar; ++v) {
        const Real sum = viscous_divergence<Eq>(b, FV, e, v, i, j, k, s0, s1, s2);
        dq(e, v, n) += curved ? inverse_jacobian(e, n) * sum : sum;
      }
    });
  }
  // Faces: the surface term of the total flux F - F_v gets -(F_v* - F_v) (or the surface
  // lift forms it where it reads S: SurfaceLift::add_element).
  if (lift_folds_viscous_faces()) return;
  parallel_for("dg::viscous_interior_faces", static_cast<int>(interior.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 const int em = interior(f, 0), ep = interior(f, 1), d = interior(f, 2);
                 for (int v = first_viscous; v < nvar; ++v) {  // F_v has no density component
                   const Real fm = T(em, 2 * d + 1, v, m), fp = T(ep, 2 * d, v, m);
                   S(em, 2 * d + 1, v, m) -= central_minus_own(fm, fp);
                   S(ep, 2 * d, v, m) -= central_minus_own(fp, fm);
                 }
               });
}

/// The viscous face terms that need the neighbours' traces (after the exchange) or walls.
template <int N, class Eq>
void DgOperator<N, Eq>::viscous_fluxes_remote(const StateView& q) {
  ScopedTimer timer(timers_, "viscous");
  const auto T = viscous_traces();
  const auto S = surface_;
  const auto mpi = mpi_;
  const auto walls = boundary_;
  const auto recv = viscous_halo_->recv_buffer();
  parallel_for("dg::viscous_mpi_faces", static_cast<int>(mpi.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 const int e = mpi(f, 0), lf = mpi(f, 1);
                 for (int v = first_viscous; v < nvar; ++v) {
                   const Real own = T(e, lf, v, m);
                   S(e, lf, v, m) -= central_minus_own(own, recv(f, (v - first_viscous) * L::face_nodes + m));
                 }
               });
  for_each_wall([&](int wall, const auto& bc) { viscous_wall_faces(q, wall, bc); });
}

/// The viscous face terms of one wall: F_v* from its boundary-condition type; what it
/// passes (F_v*) leaves the ledger's boundary flux F* - F_v*.
template <int N, class Eq>
template <class Condition>
void DgOperator<N, Eq>::viscous_wall_faces(const StateView& q, int wall, const Condition& bc) {
  const auto T = viscous_traces();
  const auto S = surface_;
  const auto faces = boundary_;
  const auto flux = wall_flux_;
  const auto aux = aux_;
  const auto th = thermo_;
  const auto metrics = metrics_;
  const bool curved = curved_;
  const Eq eq = eq_;
  const int first = wall_begin_[wall], lf = wall;
  const auto surfaces = member_surface_;
  const int per_member = member_elements_;
  parallel_for("dg::viscous_boundary_faces", wall_begin_[wall + 1] - first, L::face_nodes,
               KOKKOS_LAMBDA(const int i, const int m) {
                 const int f = first + i, e = faces(f, 0);
                 const int n = L::volume_node_of(m, lf);
                 // The element's member's condition (its own surface numbers in a batch).
                 const auto own = physics::member_condition(bc, surfaces(e / per_member));
                 Cons fv{};
                 for (int v = first_viscous; v < nvar; ++v) fv[v] = T(e, lf, v, m);
                 const typename Eq::Prim w = node_primitive(eq, load<Eq>(q, e, n), aux(e, Eq::a_phi, n), th, e, n);
                 const Cons fw = curved
                                     ? physics::wall_viscous_flux(own, eq, fv, w, contravariant(metrics, e, n, lf / 2))
                                     : own.viscous_flux(eq, fv, w);
                 for (int v = first_viscous; v < nvar; ++v) S(e, lf, v, m) -= fw[v] - fv[v];
                 for (int c = 0; c < Eq::nconserved; ++c) flux(f, c, m) -= fw[Eq::conserved(c)];
               });
}

}  // namespace squall::dg
