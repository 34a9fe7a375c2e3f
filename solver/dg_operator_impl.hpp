#pragma once
// Implementation of DgOperator<N, Eq> (included from dg_operator.hpp).
#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/reproducible_sum.hpp"
#include "physics/closures.hpp"
#include "physics/numerical_flux.hpp"

namespace squall::dg {

/// The primitive variables of the state s of node n of element e: with an equation set
/// that keeps costly values per node (Eq::nthermo > 0: the moist saturation
/// adjustment), from those the pointwise pass stored in th in this stage, which are the
/// same bits as forming them again; otherwise Eq::primitive.
template <class Eq>
KOKKOS_INLINE_FUNCTION typename Eq::Prim node_primitive(const Eq& eq, const typename Eq::Cons& s, Real phi,
                                                        const DeviceView<Real***>& th, int e, int n) {
  if constexpr (Eq::nthermo > 0) {
    return eq.primitive_from(s, phi, [&](int k) { return th(e, n, k); });
  } else {
    (void)th, (void)e, (void)n;
    return eq.primitive(s, phi);
  }
}

/// F_d(q) of node n of element e, with the node's own reference state: the flux a face
/// kernel subtracts from F* on its side (the same arithmetic as the volume flux).
/// On a curved face the normal d is the node's contravariant vector J a^d.
template <class Eq, class Normal>
KOKKOS_INLINE_FUNCTION typename Eq::Cons own_flux(const Eq& eq, const StateView& q, const AuxView& aux,
                                                  const DeviceView<Real***>& th, int e, int n, const Normal& d) {
  const typename Eq::Cons s = load<Eq>(q, e, n);
  const physics::Aux a = load_aux(aux, e, n);
  return eq.flux(s, node_primitive(eq, s, a.phi, th, e, n), a.p_ref, d);
}

/// J a^d of node n of element e (curved elements): the contravariant vector along xi_d,
/// from the metric terms (element, 3 d + k, node).
KOKKOS_INLINE_FUNCTION physics::VectorNormal contravariant(const DeviceView<Real***>& metrics, int e, int n, int d) {
  return {{metrics(e, 3 * d, n), metrics(e, 3 * d + 1, n), metrics(e, 3 * d + 2, n)}};
}

/// The unit vector of a contravariant vector: a curved face's normal.
KOKKOS_INLINE_FUNCTION physics::VectorNormal unit_normal(const physics::VectorNormal& ja) {
  const Real area = math::sqrt(ja.n[0] * ja.n[0] + ja.n[1] * ja.n[1] + ja.n[2] * ja.n[2]);
  return {{ja.n[0] / area, ja.n[1] / area, ja.n[2] / area}};
}

/// Rusanov's flux through a face node of a brick (normal along direction d) or, scaled by
/// the surface element, of a curved face (d the contravariant vector J a^d).
template <class Eq>
KOKKOS_FORCEINLINE_FUNCTION physics::RusanovFlux<Eq> face_flux(const Eq& eq, const typename Eq::Cons& q_m,
                                                           const typename Eq::Prim& w_m,
                                                           const typename Eq::Cons& q_p,
                                                           const typename Eq::Prim& w_p, const physics::Aux& a,
                                                           int d) {
  return physics::rusanov_with_sides(eq, q_m, w_m, q_p, w_p, a, d);
}
template <class Eq>
KOKKOS_FORCEINLINE_FUNCTION physics::RusanovFlux<Eq> face_flux(const Eq& eq, const typename Eq::Cons& q_m,
                                                           const typename Eq::Prim& w_m,
                                                           const typename Eq::Cons& q_p,
                                                           const typename Eq::Prim& w_p, const physics::Aux& a,
                                                           const physics::VectorNormal& ja) {
  return physics::rusanov_contravariant(eq, q_m, w_m, q_p, w_p, a, ja);
}

/// Pi(p) of a node of element e, node n, of reference pressure p_ref for its gradient
/// variables (1 without theta): Eq::exner_near where pi_ref holds Pi of the nodes'
/// reference pressures (moist air), otherwise Eq::exner.
template <class Eq>
KOKKOS_INLINE_FUNCTION Real gradient_exner(const Eq& eq, const DeviceView<Real**>& pi_ref, int e, int n, Real p,
                                           Real p_ref, bool theta) {
  if (!theta) return 1;
  return pi_ref.extent(0) > 0 ? eq.exner_near(p, p_ref, pi_ref(e, n)) : eq.exner(p);
}

/// The variables whose gradients BR1 lifts, of node n of element e, into g (when the
/// viscous phases need them: the caller skips this where g is empty), and with theta the
/// Exner function Pi(p) = exner_p (gradient_exner) into pi, which the viscous flux reads
/// instead of evaluating it again.
template <class Eq>
KOKKOS_INLINE_FUNCTION void store_gradient_variables_at(const Eq& eq, const DeviceView<Real***>& g,
                                                        const DeviceView<Real**>& pi, int e, int n,
                                                        const typename Eq::Prim& w, bool theta, Real exner_p) {
  const typename Eq::Grad v = eq.gradient_variables(w, theta, exner_p);
  for (int k = 0; k < Eq::ngrad; ++k) g(e, k, n) = v[k];
  if (pi.extent(0) > 0) pi(e, n) = exner_p;
}

/// What every volume kernel forms first at a node: its state, aux values and primitive
/// variables, and (for the viscous phases) its gradient variables, stored into g.
template <class Eq>
struct NodePoint {
  typename Eq::Cons q;
  physics::Aux a;
  typename Eq::Prim w;
};
/// The pointwise pass of a node whose primitive variables w and gradient_exner are
/// formed already (the same bits as eq.primitive of its state and gradient_exner:
/// primitives_in_packs).
template <class Eq>
KOKKOS_FORCEINLINE_FUNCTION NodePoint<Eq> pointwise_pass_with(const Eq& eq, const StateView& q, const AuxView& aux,
                                                         const DeviceView<Real**>& pi,
                                                         const DeviceView<Real***>& g, const DeviceView<Real***>& th,
                                                         int e, int n, bool theta, const typename Eq::Prim& w,
                                                         Real exner_p) {
  NodePoint<Eq> p;
  p.q = load<Eq>(q, e, n);
  p.a = load_aux(aux, e, n);
  p.w = w;
  if (g.extent(0) > 0) store_gradient_variables_at(eq, g, pi, e, n, p.w, theta, exner_p);
  if constexpr (Eq::nthermo > 0) {
    Real values[Eq::nthermo];
    Eq::thermo_values(p.w, values);
    for (int k = 0; k < static_cast<int>(th.extent(2)); ++k) th(e, n, k) = values[k];  // eq.thermo_count()
  } else {
    (void)th;
  }
  return p;
}

/// eq.primitive of every node of element e into w, and gradient_exner into exner,
/// pack_width nodes at a time (host backends; the last nodes one by one): the same bits,
/// node by node. Moist air (Eq::primitives), whose saturation test is worth doing in the
/// lanes.
template <int Nodes, class Eq>
void primitives_in_packs(const Eq& eq, const StateView& q, const AuxView& aux, const DeviceView<Real**>& pi_ref,
                         bool theta, int e, typename Eq::Prim* w, Real* exner) {
  constexpr int W = pack_width;
  using P = Pack<W>;
  const bool near = theta && pi_ref.extent(0) > 0;  // gradient_exner's series
  int n = 0;
  for (; n + W <= Nodes; n += W) {
    // The views are LayoutRight, node index last: a pack's nodes lie side by side.
    typename Eq::template ConsOf<P> c;
    for (int v = 0; v < Eq::nvar; ++v) c[v] = P::load(&q(e, v, n));
    eq.primitives(c, P::load(&aux(e, Eq::a_phi, n)), w + n);
    if (near) {
      const P pe = eq.exner_near(P::gather([&](int l) { return w[n + l].p; }),
                                 P::gather([&](int l) { return aux(e, Eq::a_p_ref, n + l); }),
                                 P::gather([&](int l) { return pi_ref(e, n + l); }));
      for (int l = 0; l < W; ++l) exner[n + l] = pe[l];
    } else {
      for (int l = 0; l < W; ++l)
        exner[n + l] = gradient_exner(eq, pi_ref, e, n + l, w[n + l].p, aux(e, Eq::a_p_ref, n + l), theta);
    }
  }
  for (; n < Nodes; ++n) {
    w[n] = eq.primitive(load<Eq>(q, e, n), aux(e, Eq::a_phi, n));
    exner[n] = gradient_exner(eq, pi_ref, e, n, w[n].p, aux(e, Eq::a_p_ref, n), theta);
  }
}

/// The pointwise pass of node n of element e: eq.primitive, gradient_exner where the
/// gradient variables are stored, and pointwise_pass_with.
template <class Eq>
KOKKOS_FORCEINLINE_FUNCTION NodePoint<Eq> pointwise_pass(const Eq& eq, const StateView& q, const AuxView& aux,
                                                    const DeviceView<Real**>& pi, const DeviceView<Real**>& pi_ref,
                                                    const DeviceView<Real***>& g, const DeviceView<Real***>& th, int e,
                                                    int n, bool theta) {
  const physics::Aux a = load_aux(aux, e, n);
  const typename Eq::Prim w = eq.primitive(load<Eq>(q, e, n), a.phi);
  const Real exner_p = g.extent(0) > 0 ? gradient_exner(eq, pi_ref, e, n, w.p, a.p_ref, theta) : Real(1);
  return pointwise_pass_with(eq, q, aux, pi, g, th, e, n, theta, w, exner_p);
}

/// The element kernels' pointwise passes (element e, its nodes in order): moist air on
/// host backends forms the nodes' primitive variables in packs first
/// (element_primitives: primitives_in_packs into prims and exners, of packed_nodes<Eq>
/// entries), then each node's pass from them (element_point: pointwise_pass_with);
/// elsewhere element_primitives does nothing and element_point is pointwise_pass. The
/// same bits. Functions, not `if constexpr` in the kernel: nvcc does not let a device
/// lambda capture a variable first inside one.
template <class Eq, int Nodes>
inline constexpr int packed_nodes = host_backend && Eq::moist ? Nodes : 1;
template <int Nodes, class Eq>
KOKKOS_FORCEINLINE_FUNCTION void element_primitives(const Eq& eq, const StateView& q, const AuxView& aux,
                                                    const DeviceView<Real**>& pi_ref, bool theta, int e,
                                                    typename Eq::Prim* prims, Real* exners) {
  if constexpr (host_backend && Eq::moist) {
    primitives_in_packs<Nodes>(eq, q, aux, pi_ref, theta, e, prims, exners);
  } else {
    (void)eq, (void)q, (void)aux, (void)pi_ref, (void)theta, (void)e, (void)prims, (void)exners;
  }
}
template <class Eq>
KOKKOS_FORCEINLINE_FUNCTION NodePoint<Eq> element_point(const Eq& eq, const StateView& q, const AuxView& aux,
                                                        const DeviceView<Real**>& pi, const DeviceView<Real**>& pi_ref,
                                                        const DeviceView<Real***>& g, const DeviceView<Real***>& th,
                                                        int e, int n, bool theta, const typename Eq::Prim* prims,
                                                        const Real* exners) {
  if constexpr (host_backend && Eq::moist) {
    (void)pi_ref;
    return pointwise_pass_with(eq, q, aux, pi, g, th, e, n, theta, prims[n], exners[n]);
  } else {
    (void)prims, (void)exners;
    return pointwise_pass(eq, q, aux, pi, pi_ref, g, th, e, n, theta);
  }
}

/// The Rusanov surface terms F* - F of both sides of the interior face normal to D
/// between elements em (minus) and ep (plus), at face node m. The minus side's own flux
/// comes with F* (same reference state); the plus side's is formed with its own node's
/// reference state, which is the face point's everywhere but across a periodic boundary
/// along gravity: where the plus node's p_ref and phi are those of the minus node, F*'s
/// plus flux is that flux already (the same function of the same values, so the same
/// bits), and only the other faces form it again.
/// Curved: the fluxes are contravariant, along J a^D of each side's own node (bitwise the
/// same vector on both sides: solver/geometry.hpp), F* scaled by the surface element.
template <int D, bool Curved, int N, class Eq>
KOKKOS_INLINE_FUNCTION void interior_face_node(const Eq& eq, const StateView& q, const AuxView& aux,
                                               const DeviceView<Real***>& th, const DeviceView<Real***>& metrics,
                                               const DeviceView<Real****>& S, int em, int ep, int m) {
  using L = Layout<N>;
  const int nm = L::volume_node_of(m, 2 * D + 1), np = L::volume_node_of(m, 2 * D);
  const typename Eq::Cons qm = load<Eq>(q, em, nm), qp = load<Eq>(q, ep, np);
  const physics::Aux am = load_aux(aux, em, nm);
  if constexpr (Curved) {
    const physics::RusanovFlux<Eq> r =
        physics::rusanov_contravariant(eq, qm, node_primitive(eq, qm, am.phi, th, em, nm), qp,
                                       node_primitive(eq, qp, am.phi, th, ep, np), am, contravariant(metrics, em, nm, D));
    const typename Eq::Cons fp = own_flux(eq, q, aux, th, ep, np, contravariant(metrics, ep, np, D));
    for (int v = 0; v < Eq::nvar; ++v) {
      S(em, 2 * D + 1, v, m) = r.star[v] - r.minus[v];
      S(ep, 2 * D, v, m) = r.star[v] - fp[v];
    }
    return;
  }
  (void)metrics;
  const physics::RusanovFlux<Eq> r = physics::rusanov_with_sides(
      eq, qm, node_primitive(eq, qm, am.phi, th, em, nm), qp, node_primitive(eq, qp, am.phi, th, ep, np), am, D);
  const bool same_reference = aux(ep, Eq::a_p_ref, np) == am.p_ref && aux(ep, Eq::a_phi, np) == am.phi;
  const typename Eq::Cons fp = same_reference ? r.plus : own_flux(eq, q, aux, th, ep, np, D);
  for (int v = 0; v < Eq::nvar; ++v) {
    S(em, 2 * D + 1, v, m) = r.star[v] - r.minus[v];
    S(ep, 2 * D, v, m) = r.star[v] - fp[v];
  }
}

/// Rusanov's flux at the face nodes m, ..., m + W - 1 of a brick's interior face normal
/// to D between elements em (minus) and ep (plus) at once (host backends, W =
/// pack_width), where every plus node has its minus node's reference state: both sides'
/// states gathered into packs (a z face's nodes lie side by side in the element, so they
/// load as one), their primitive variables, the two fluxes and F* in the lanes, handed to
/// put(v, F*, F(q_m), F(q_p)) variable by variable. Each lane's operations are
/// interior_face_node's, so each face node gets its bits. Equation sets without stored
/// thermodynamic values (dry air): moist air's face nodes, which also read T and q_l of
/// both sides, measured 6 % slower in packs than node by node (docs/performance.md,
/// twenty-fourth round), so they keep the node kernel.
template <int D, int N, class Eq, class Put>
void interior_face_pack(const Eq& eq, const StateView& q, const AuxView& aux, int em, int ep, int m,
                        const Put& put) {
  static_assert(Eq::nthermo == 0, "primitive variables from the state alone");
  using L = Layout<N>;
  constexpr int W = pack_width;
  using P = Pack<W>;
  int nm[W], np[W];
  for (int l = 0; l < W; ++l) nm[l] = L::volume_node_of(m + l, 2 * D + 1), np[l] = L::volume_node_of(m + l, 2 * D);
  const auto side = [&](int e, const int* n) {
    typename Eq::template ConsOf<P> c;
    for (int v = 0; v < Eq::nvar; ++v) {
      if constexpr (D == 2)
        c[v] = P::load(&q(e, v, n[0]));
      else
        c[v] = P::gather([&](int l) { return q(e, v, n[l]); });
    }
    return c;
  };
  const auto qm = side(em, nm), qp = side(ep, np);
  const P phi = P::gather([&](int l) { return aux(em, Eq::a_phi, nm[l]); });
  const P p_ref = P::gather([&](int l) { return aux(em, Eq::a_p_ref, nm[l]); });
  const auto wm = eq.primitive(qm, phi), wp = eq.primitive(qp, phi);
  const physics::AxisNormal normal{D};
  const auto fm = eq.flux(qm, wm, p_ref, normal), fp = eq.flux(qp, wp, p_ref, normal);
  const P lambda = math::max(eq.max_wave_speed(wm, normal), eq.max_wave_speed(wp, normal));
  for (int v = 0; v < Eq::nvar; ++v) put(v, 0.5 * (fm[v] + fp[v]) - 0.5 * lambda * (qp[v] - qm[v]), fm[v], fp[v]);
}

/// All face nodes of a brick's interior face normal to D (host backends). A face whose
/// plus nodes all have their minus nodes' reference state (`same_reference`, formed at
/// set-up; all but the faces across a periodic boundary along gravity): whole packs with
/// interior_face_pack, F* - F of both sides stored where the face nodes lie side by side
/// in S, and the last nodes one by one (a last pack over the last W nodes, which forms
/// some again, took more instructions than those nodes alone). Other faces: node by node
/// (interior_face_node).
template <int D, int N, class Eq>
void interior_face_packs(const Eq& eq, const StateView& q, const AuxView& aux, const DeviceView<Real***>& th,
                         const DeviceView<Real***>& metrics, const DeviceView<Real****>& S, int em, int ep,
                         bool same_reference) {
  constexpr int W = pack_width, nodes = Layout<N>::face_nodes;
  int m = 0;
  if (same_reference)
    for (; m + W <= nodes; m += W)
      interior_face_pack<D, N>(eq, q, aux, em, ep, m, [&](int v, const auto& star, const auto& fm, const auto& fp) {
        (star - fm).store(&S(em, 2 * D + 1, v, m));
        (star - fp).store(&S(ep, 2 * D, v, m));
      });
  for (; m < nodes; ++m) interior_face_node<D, false, N>(eq, q, aux, th, metrics, S, em, ep, m);
}

template <int N, class Eq>
DgOperator<N, Eq>::DgOperator(const mesh::LocalMesh& mesh, const Basis<N>& basis,
                          const Geometry& geometry, AuxView aux, const OperatorOptions& options,
                          MPI_Comm comm, Timers& timers)
    : elements_(mesh.element_count()),
      eq_(Eq::make(options.gas, options.water)),
      basis_(basis),
      gravity_(options.gravity),
      split_form_(options.split_form),
      kernel_layout_(options.kernel_layout),
      element_packs_(options.element_packs),
      viscosity_(options.viscosity),
      diffusivity_(options.viscosity / options.prandtl),
      tracer_diffusivity_(options.viscosity / options.schmidt),
      viscous_(options.viscous()),
      closure_(options.closure),
      prandtl_t_(options.turbulent_prandtl),
      schmidt_t_(options.turbulent_schmidt),
      cloud_interior_(options.cloud_interior),
      sponge_(options.sponge),
      theta_diffusion_(options.theta_diffusion),
      sponge_layer_(options.sponge_layer),
      walls_(options.walls),
      case_sources_(options.case_sources),
      forcing_(options.forcing),
      forcing_bottom_(options.forcing_bottom),
      radiation_(options.radiation),
      radiation_scheme_(options.radiation_scheme),
      curved_(geometry.curved),
      metrics_(geometry.metrics),
      inverse_jacobian_(geometry.inverse_jacobian),
      comm_(comm),
      x_(geometry.x),
      aux_(aux),
      timers_(timers) {
  members_ = mesh.members();
  member_elements_ = elements_ / members_;
  ledger_rates_.assign(static_cast<size_t>(members_) * Eq::nconserved, 0.0);
  for (int d = 0; d < 2; ++d) two_over_h_[d] = 2 / geometry.h[d];
  {  // per element: 2 / h_z, and the filter width (the cube root of the volume over N + 1)
    two_over_hz_ = DeviceView<Real*>("dg::two_over_hz", elements_);
    filter_width_ = DeviceView<Real*>("dg::filter_width", elements_);
    const auto sh = Kokkos::create_mirror_view(two_over_hz_);
    const auto fh = Kokkos::create_mirror_view(filter_width_);
    for (int e = 0; e < elements_; ++e) {
      sh(e) = 2 / geometry.hz[e];
      fh(e) = math::cbrt(geometry.h[0] * geometry.h[1] * geometry.hz[e]) / (N + 1);
      if (geometry.curved) {  // the curved element's own volume, sum of w J over its nodes
        Real volume = 0;
        for (int n = 0; n < L::nodes; ++n)
          volume += basis.w[L::index(n, 0)] * basis.w[L::index(n, 1)] * basis.w[L::index(n, 2)] *
                    geometry.node_jacobian[static_cast<std::size_t>(e) * L::nodes + n];
        fh(e) = math::cbrt(volume) / (N + 1);
      }
    }
    Kokkos::deep_copy(two_over_hz_, sh);
    Kokkos::deep_copy(filter_width_, fh);
    // Each member's C_s (a batch), or the one C_s.
    const auto& cs = options.member_smagorinsky_cs;
    if (!cs.empty() && static_cast<int>(cs.size()) != members_)
      throw RunError("the operator has " + std::to_string(cs.size()) + " values of C_s for " +
                     std::to_string(members_) + " members");
    model_constant_ = DeviceView<Real*>("dg::closure_constant", elements_);
    const auto mh = Kokkos::create_mirror_view(model_constant_);
    for (int e = 0; e < elements_; ++e)
      mh(e) = model_constant(options.closure, cs.empty() ? options.smagorinsky_cs : cs[e / member_elements_]);
    Kokkos::deep_copy(model_constant_, mh);
  }
  {  // each member's surface numbers and forcing (a batch), or the one set
    const auto& surface = options.member_surface;
    const auto& forcing = options.member_forcing;
    for (const size_t given : {surface.size(), forcing.size()})
      if (given != 0 && static_cast<int>(given) != members_)
        throw RunError("the operator has " + std::to_string(given) + " members' surface numbers or forcing for " +
                       std::to_string(members_) + " members");
    for (const physics::LargeScaleForcing& f : forcing)
      if (f.active() != forcing_.active() || f.subsidence.active() != forcing_.subsidence.active() ||
          f.geostrophic_sponge != forcing_.geostrophic_sponge)
        throw RunError("the members of a batch have different forcing terms on (they may differ in values only)");
    member_surface_ = DeviceView<physics::SurfaceParameters*>("dg::member_surface", members_);
    member_coriolis_ = DeviceView<Real*>("dg::member_coriolis", members_);
    const auto sh = Kokkos::create_mirror_view(member_surface_);
    const auto ch = Kokkos::create_mirror_view(member_coriolis_);
    for (int m = 0; m < members_; ++m) {
      sh(m) = surface.empty() ? walls_.surface : surface[static_cast<size_t>(m)];
      ch(m) = forcing.empty() ? forcing_.coriolis : forcing[static_cast<size_t>(m)].coriolis;
    }
    Kokkos::deep_copy(member_surface_, sh);
    Kokkos::deep_copy(member_coriolis_, ch);
  }
  for (int d = 0; d < 3; ++d) walls_anywhere_ |= !mesh.brick().periodic()[d];
  // Subsidence differentiates along the elements' z lines and radiation integrates along
  // them: neither is a vertical operation on curved elements.
  if (curved_ && (!split_form_ || forcing_.subsidence.active() || radiation_))
    throw InputError(
        "curved elements (terrain) take the split-form operator only, without the column operations: "
        "dg.volume_flux = \"kennedy_gruber\", no forcing.subsidence and no [radiation]");
  max_diffusivity_ = viscous_ ? max_molecular_diffusivity() : 0;
  theta_gradient_ = theta_diffusion_ || (closure_ == Closure::smagorinsky && gravity_ != 0);

  const int ni = static_cast<int>(mesh.interior_faces().size());
  const int nb = static_cast<int>(mesh.boundary_faces().size());
  const int nm = static_cast<int>(mesh.mpi_faces().size());
  interior_ = DeviceView<int* [3]>("dg::interior_faces", ni);
  boundary_ = DeviceView<int* [2]>("dg::boundary_faces", nb);
  mpi_ = DeviceView<int* [3]>("dg::mpi_faces", nm);
  auto ih = Kokkos::create_mirror_view(interior_);
  auto bh = Kokkos::create_mirror_view(boundary_);
  auto mh = Kokkos::create_mirror_view(mpi_);
  // Interior faces in the order of their minus element (then direction), so that the face
  // kernels sweep the element arrays once, in memory order, instead of once per direction.
  // Each face writes its own slots only, so the order does not change any value.
  std::vector<int> by_element(ni);
  for (int f = 0; f < ni; ++f) by_element[f] = f;
  std::stable_sort(by_element.begin(), by_element.end(), [&](int a, int b) {
    const auto& fa = mesh.interior_faces()[a];
    const auto& fb = mesh.interior_faces()[b];
    return fa.element_minus != fb.element_minus ? fa.element_minus < fb.element_minus : fa.direction < fb.direction;
  });
  for (int f = 0; f < ni; ++f) {
    const auto& face = mesh.interior_faces()[by_element[f]];
    ih(f, 0) = face.element_minus, ih(f, 1) = face.element_plus, ih(f, 2) = face.direction;
  }
  if constexpr (host_backend && Eq::nthermo == 0) {
    // For the pack kernel of the interior faces (interior_face_packs): whether every plus
    // node of face f has its minus node's reference pressure and geopotential, decided
    // once (the aux values are fixed before the operator is built), so that the kernel
    // does not read the plus side's aux values to learn it.
    interior_same_reference_ = DeviceView<int*>("dg::interior_same_reference", ni);
    for (int f = 0; f < ni; ++f) {
      const int em = ih(f, 0), ep = ih(f, 1), d = ih(f, 2);
      bool same = true;
      for (int m = 0; m < L::face_nodes; ++m) {
        const int minus = L::volume_node_of(m, 2 * d + 1), plus = L::volume_node_of(m, 2 * d);
        same = same && aux_(ep, Eq::a_p_ref, plus) == aux_(em, Eq::a_p_ref, minus) &&
               aux_(ep, Eq::a_phi, plus) == aux_(em, Eq::a_phi, minus);
      }
      interior_same_reference_(f) = same ? 1 : 0;
    }
  }
  // Boundary faces grouped by wall (= local face), each wall's faces contiguous, so that
  // each wall's kernels run with its boundary-condition type.
  {
    int f = 0;
    for (int wall = 0; wall < 6; ++wall) {
      wall_begin_[wall] = f;
      for (const auto& face : mesh.boundary_faces())
        if (face.local_face == wall) bh(f, 0) = face.element, bh(f, 1) = face.local_face, ++f;
    }
    wall_begin_[6] = f;
    for (int g = 0; g < f; ++g) boundary_member_.push_back(bh(g, 0) / mesh.member_element_count());
  }
  for (int f = 0; f < nm; ++f) {
    const auto& face = mesh.mpi_faces()[f];
    mh(f, 0) = face.element, mh(f, 1) = face.local_face, mh(f, 2) = face.is_minus ? 1 : 0;
  }
  Kokkos::deep_copy(interior_, ih);
  Kokkos::deep_copy(boundary_, bh);
  Kokkos::deep_copy(mpi_, mh);

  // The standard form needs F_d(q) at every node; the split form only at faces, where the
  // face kernels form it (own_flux), so it is not stored.
  if (!split_form_) flux_ = DeviceView<Real***>("dg::volume_flux", elements_, 3 * nvar, L::nodes);
  surface_ = DeviceView<Real****>("dg::surface", elements_, 6, nvar, L::face_nodes);
  if (split_form_ && kernel_layout_ != KernelLayout::elements)
    points_ = DeviceView<Real***>("dg::split_points", elements_, Eq::nsplit, L::nodes);
  if constexpr (Eq::nthermo > 0)
    thermo_ = DeviceView<Real***>("dg::thermo_values", elements_, L::nodes, eq_.thermo_count());
  wall_flux_ = DeviceView<Real***>("dg::wall_flux", nb, Eq::nconserved, L::face_nodes);
  wall_rates_ = DeviceView<Real**>("dg::wall_rates", nb, Eq::nconserved);
  wall_rates_host_ = Kokkos::create_mirror_view(wall_rates_);
  halo_ = std::make_unique<mesh::HaloExchange>(mesh, nvar * L::face_nodes, comm);
  if (forcing_.active()) {  // the forcing's factors of each node's height, once
    constexpr int nf = physics::ForcingFactors::count;
    forcing_factors_ = DeviceView<Real***>("dg::forcing_factors", elements_, nf, L::nodes);
    const auto fh = Kokkos::create_mirror_view(forcing_factors_);
    const auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x_);
    const auto ah = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), aux_);
    const auto& each = options.member_forcing;  // a batch: each member's own
    for (int e = 0; e < elements_; ++e)
      for (int n = 0; n < L::nodes; ++n) {
        Real values[nf];
        const physics::LargeScaleForcing& own =
            each.empty() ? forcing_ : each[static_cast<size_t>(e / member_elements_)];
        physics::forcing_factors(own, xh(e, 2, n) - forcing_bottom_, xh(e, 2, n), eq_.exner(ah(e, Eq::a_p_ref, n)),
                                 values);
        for (int k = 0; k < nf; ++k) fh(e, k, n) = values[k];
      }
    Kokkos::deep_copy(forcing_factors_, fh);
  }
  if (radiation_) {
    radiation_scheme_.cp = eq_.gas.cp_d;  // the dry air's c_p of the equation set
    {  // each member's numbers (a batch), or the one set, with the same c_p
      const auto& each = options.member_radiation;
      if (!each.empty() && static_cast<int>(each.size()) != members_)
        throw RunError("the operator has " + std::to_string(each.size()) + " members' radiation numbers for " +
                       std::to_string(members_) + " members");
      member_radiation_ = DeviceView<physics::DycomsRadiation*>("dg::member_radiation", members_);
      const auto rh = Kokkos::create_mirror_view(member_radiation_);
      for (int m = 0; m < members_; ++m) {
        rh(m) = each.empty() ? radiation_scheme_ : each[static_cast<size_t>(m)];
        rh(m).cp = radiation_scheme_.cp;
        if ((rh(m).inversion_qt > 0) != (radiation_scheme_.inversion_qt > 0))
          throw RunError("the members of a batch diagnose the inversion height differently (radiation.inversion_qt)");
      }
      Kokkos::deep_copy(member_radiation_, rh);
    }
    columns_ = std::make_unique<ColumnOperations<N>>(mesh, geometry.hz, comm);
    water_density_ = DeviceView<Real**>("dg::radiation_water", elements_, L::nodes);
    lwp_below_ = DeviceView<Real**>("dg::radiation_lwp_below", elements_, L::nodes);
    lwp_above_ = DeviceView<Real**>("dg::radiation_lwp_above", elements_, L::nodes);
    radiation_flux_ = DeviceView<Real**>("dg::radiation_flux", elements_, L::nodes);
    if (radiation_scheme_.inversion_qt > 0) {
      inversion_mask_ = DeviceView<Real**>("dg::radiation_inversion_mask", elements_, L::nodes);
      inversion_ = DeviceView<Real**>("dg::radiation_inversion", elements_, L::nodes);
    }
  }
  if (case_sources_ || forcing_.active() || radiation_) {
    node_weights_ = DeviceView<Real**>("dg::node_weights", elements_, L::nodes);
    conserved_ = DeviceView<int*>("dg::conserved", Eq::nconserved);
    element_rates_ = DeviceView<Real**>("dg::element_source_rates", elements_, Eq::nconserved);
    const auto wh = Kokkos::create_mirror_view(node_weights_);
    const auto ch = Kokkos::create_mirror_view(conserved_);
    for (int e = 0; e < elements_; ++e)
      for (int n = 0; n < L::nodes; ++n)
        wh(e, n) = basis.w[L::index(n, 0)] * basis.w[L::index(n, 1)] * basis.w[L::index(n, 2)] *
                   (curved_ ? geometry.node_jacobian[static_cast<std::size_t>(e) * L::nodes + n]
                            : geometry.jacobian[e]);
    for (int c = 0; c < Eq::nconserved; ++c) ch(c) = Eq::conserved(c);
    Kokkos::deep_copy(node_weights_, wh);
    Kokkos::deep_copy(conserved_, ch);
  }
  if (viscous_) {
    if (members_ > 1) {
      element_diffusivity_ = DeviceView<Real*>("dg::element_diffusivity", elements_);
      member_maxima_ = DeviceView<Real*>("dg::member_max_diffusivity", members_);
      member_maxima_host_ = Kokkos::create_mirror_view(member_maxima_);
    }
    gvars_ = DeviceView<Real***>("dg::gradient_variables", elements_, Eq::ngrad, L::nodes);
    if (theta_gradient_) exner_ = DeviceView<Real**>("dg::exner", elements_, L::nodes);
    // Pi(p_ref), for Eq::exner_near. A rank forms the gradient variables of a remote
    // neighbour's face node with its own node's p_ref (gradients_remote), which is the
    // neighbour's wherever the reference state is continuous across faces: everywhere
    // but across a periodic boundary in z, where the series is not used.
    if (theta_gradient_ && Eq::moist && !mesh.brick().periodic()[2]) {
      exner_ref_ = DeviceView<Real**>("dg::exner_of_reference_pressure", elements_, L::nodes);
      const auto eh = Kokkos::create_mirror_view(exner_ref_);
      const auto ah = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), aux_);
      for (int e = 0; e < elements_; ++e)
        for (int n = 0; n < L::nodes; ++n) eh(e, n) = eq_.exner(ah(e, Eq::a_p_ref, n));
      Kokkos::deep_copy(exner_ref_, eh);
    }
    grad_surface_ = DeviceView<Real****>("dg::gradient_surface", elements_, 6, Eq::ngrad, L::face_nodes);
    if (kernel_layout_ != KernelLayout::nodes)
      vtrace_ = DeviceView<Real****>("dg::viscous_flux_traces", elements_, 6, nvflux, L::face_nodes);
    else
      vflux_ = DeviceView<Real***>("dg::viscous_flux", elements_, 3 * nvflux, L::nodes);
    viscous_halo_ = std::make_unique<mesh::HaloExchange>(mesh, nvflux * L::face_nodes, comm);
    const auto to_device = [](const char* label, const std::vector<int>& values) {
      DeviceView<int*> view(std::string(label), values.size());
      const auto host = Kokkos::create_mirror_view(view);
      for (std::size_t i = 0; i < values.size(); ++i) host(i) = values[i];
      Kokkos::deep_copy(view, host);
      return view;
    };
    if (kernel_layout_ != KernelLayout::nodes) {  // the lifting forms interior-face jumps itself
      neighbors_ = DeviceView<int* [6]>("dg::neighbors", elements_);
      const auto nh = Kokkos::create_mirror_view(neighbors_);
      for (int e = 0; e < elements_; ++e)
        for (int lf = 0; lf < 6; ++lf) nh(e, lf) = -1;
      for (const auto& face : mesh.interior_faces()) {
        nh(face.element_minus, 2 * face.direction + 1) = face.element_plus;
        nh(face.element_plus, 2 * face.direction) = face.element_minus;
      }
      Kokkos::deep_copy(neighbors_, nh);
    }
    std::vector<char> on_mpi_face(elements_, 0);
    for (const auto& face : mesh.mpi_faces()) on_mpi_face[face.element] = 1;
    std::vector<int> halo, inner;
    for (int e = 0; e < elements_; ++e) (on_mpi_face[e] ? halo : inner).push_back(e);
    halo_elements_ = to_device("dg::halo_elements", halo);
    inner_elements_ = to_device("dg::inner_elements", inner);
  }
}

template <int N, class Eq>
void DgOperator<N, Eq>::operator()(Real t, const FlatView& q_flat, const FlatView& dq_flat) {
  const StateView q = state_view(q_flat), dq = state_view(dq_flat);
  for (double& r : ledger_rates_) r = 0;
  if (element_diffusivity_.extent(0) > 0) Kokkos::deep_copy(element_diffusivity_, Real(0));
  // 1. Start the halo exchange: this rank's traces on MPI faces go out.
  start_halo_exchange(q);
  // 2. Volume integral (overlaps the exchange).
  volume_integral(q, dq);
  // 3. Interior faces (overlap the exchange); viscous: gradients from local data.
  interior_faces(q);
  if (viscous_ && kernel_layout_ == KernelLayout::nodes) gradients_local();  // elements: in the lifting
  // 4. Finish the halo exchange.
  {
    ScopedTimer timer(timers_, "halo_wait", false);
    halo_->finish();
  }
  // 5. MPI faces, with the neighbours' traces.
  mpi_faces(q);
  // 6. Boundary faces (walls); viscous: the rest of the gradients, then the viscous
  //    fluxes, with their own halo exchange (BR1 central fluxes).
  boundary_faces(q);
  if (viscous_) {
    gradients_remote(q);
    viscous_fluxes_local(q, dq);  // starts the exchange of the viscous flux traces
    {
      ScopedTimer timer(timers_, "halo_wait", false);
      viscous_halo_->finish();
    }
    viscous_fluxes_remote(q);
  }
  // 7. What crossed the walls, for the conservation ledger (sources add theirs in 9).
  boundary_rates();
  // 8. Surface lift: face corrections into the end nodes.
  surface_lift(dq);
  // 9. Sources.
  sources(t, q, dq);
  evaluated_ = true;
}

template <int N, class Eq>
void DgOperator<N, Eq>::start_halo_exchange(const StateView& q) {
  ScopedTimer timer(timers_, "halo_start");
  const auto send = halo_->send_buffer();
  const auto faces = mpi_;
  parallel_for("dg::pack_halo", static_cast<int>(faces.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 const int n = L::volume_node_of(m, faces(f, 1));
                 for (int v = 0; v < nvar; ++v) send(f, v * L::face_nodes + m) = q(faces(f, 0), v, n);
               });
  halo_->start();
}

template <int N, class Eq>
void DgOperator<N, Eq>::volume_integral(const StateView& q, const StateView& dq) {
  ScopedTimer timer(timers_, "volume");
  if (split_form_ && kernel_layout_ == KernelLayout::elements) {
    if (curved_)
      volume_integral_split_lines<true>(q, dq);
    else
      volume_integral_split_lines<false>(q, dq);
    return;
  }
  const auto F = flux_;
  const auto P = points_;
  const auto g = gvars_;
  const auto pi = exner_;
  const auto pi_ref = exner_ref_;
  const auto th = thermo_;
  const bool theta = theta_gradient_;
  const auto aux = aux_;
  const Eq eq = eq_;
  // Everything the later phases need of each node's primitive state, in one pass:
  // fluxes (standard form), split-form points, and the variables whose gradients BR1 lifts.
  parallel_for("dg::volume_flux", elements_, L::nodes, KOKKOS_LAMBDA(const int e, const int n) {
    const NodePoint<Eq> p = pointwise_pass(eq, q, aux, pi, pi_ref, g, th, e, n, theta);
    if (F.extent(0) > 0) {
      for (int d = 0; d < 3; ++d) {
        const Cons f = eq.flux(p.q, p.w, p.a.p_ref, d);
        for (int v = 0; v < nvar; ++v) F(e, d * nvar + v, n) = f[v];
      }
    }
    if (P.extent(0) > 0) {
      Real values[Eq::nsplit];
      Eq::split_values(eq.split_point(p.q, p.w, p.a.p_ref), values);
      for (int v = 0; v < Eq::nsplit; ++v) P(e, v, n) = values[v];
    }
  });
  if (split_form_) {
    if (curved_)
      volume_integral_split<true>(dq);
    else
      volume_integral_split<false>(dq);
    return;
  }
  const Basis<N> b = basis_;
  const Real s0 = two_over_h_[0], s1 = two_over_h_[1];
  const auto hz = two_over_hz_;
  parallel_for("dg::volume_integral", elements_, L::nodes, KOKKOS_LAMBDA(const int e, const int n) {
    const Real scale[3] = {s0, s1, hz(e)};
    for (int v = 0; v < nvar; ++v) {
      Real sum = 0;
      for (int d = 0; d < 3; ++d) sum += scale[d] * derivative_along(b, F, e, d * nvar + v, n, d);
      dq(e, v, n) = -sum;
    }
  });
}

template <int N, class Eq>
void DgOperator<N, Eq>::interior_faces(const StateView& q) {
  ScopedTimer timer(timers_, "interior_faces");
  if (curved_)
    interior_faces<true>(q);
  else
    interior_faces<false>(q);
}

template <int N, class Eq>
template <bool Curved>
void DgOperator<N, Eq>::interior_faces(const StateView& q) {
  const auto metrics = metrics_;
  const auto faces = interior_;
  const auto S = surface_;
  const auto aux = aux_;
  const auto th = thermo_;
  const Eq eq = eq_;
  const auto same = interior_same_reference_;
  if constexpr (host_backend && !Curved && Eq::nthermo == 0) {
    // Host backends, dry air: a face per thread, its nodes in packs (interior_face_packs);
    // the node layout keeps a thread per face node, as on devices.
    if (kernel_layout_ != KernelLayout::nodes) {
      parallel_for("dg::interior_faces", static_cast<int>(faces.extent(0)), KOKKOS_LAMBDA(const int f) {
        const int em = faces(f, 0), ep = faces(f, 1), d = faces(f, 2);
        const bool same_reference = same(f) != 0;
        if (d == 0)
          interior_face_packs<0, N>(eq, q, aux, th, metrics, S, em, ep, same_reference);
        else if (d == 1)
          interior_face_packs<1, N>(eq, q, aux, th, metrics, S, em, ep, same_reference);
        else
          interior_face_packs<2, N>(eq, q, aux, th, metrics, S, em, ep, same_reference);
      });
      return;
    }
  }
  parallel_for("dg::interior_faces", static_cast<int>(faces.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 const int em = faces(f, 0), ep = faces(f, 1), d = faces(f, 2);
                 // The direction as a compile-time constant (fluxes in registers).
                 if (d == 0) {
                   interior_face_node<0, Curved, N>(eq, q, aux, th, metrics, S, em, ep, m);
                 } else if (d == 1) {
                   interior_face_node<1, Curved, N>(eq, q, aux, th, metrics, S, em, ep, m);
                 } else {
                   interior_face_node<2, Curved, N>(eq, q, aux, th, metrics, S, em, ep, m);
                 }
               });
}

/// The surface term F* - F(inner) of a face node whose other side is the state `outer`
/// (a neighbour's trace from the halo, or a wall's outer state): `minus` says whether
/// this side is the face's minus side; `a` is this node's aux values, so this side's
/// own flux comes with F*. Returns F*.
/// Curved: d is this node's contravariant vector J a^d, and F* is scaled by the surface
/// element (face_flux).
template <class Eq, class Normal, class Cons = typename Eq::Cons>
KOKKOS_INLINE_FUNCTION Cons one_sided_face_node(const Eq& eq, const Cons& inner, const typename Eq::Prim& w_inner,
                                                const Cons& outer, const physics::Aux& a, const Normal& d,
                                                bool minus, const DeviceView<Real****>& S, int e, int lf, int m) {
  const typename Eq::Prim w_outer = eq.primitive(outer, a.phi);
  const physics::RusanovFlux<Eq> r = minus ? face_flux(eq, inner, w_inner, outer, w_outer, a, d)
                                           : face_flux(eq, outer, w_outer, inner, w_inner, a, d);
  const Cons& own = minus ? r.minus : r.plus;
  for (int v = 0; v < Eq::nvar; ++v) S(e, lf, v, m) = r.star[v] - own[v];
  return r.star;
}

template <int N, class Eq>
void DgOperator<N, Eq>::mpi_faces(const StateView& q) {
  ScopedTimer timer(timers_, "mpi_faces");
  const auto faces = mpi_;
  const auto recv = halo_->recv_buffer();
  const auto S = surface_;
  const auto aux = aux_;
  const auto th = thermo_;
  const auto metrics = metrics_;
  const bool curved = curved_;
  const Eq eq = eq_;
  parallel_for("dg::mpi_faces", static_cast<int>(faces.extent(0)), L::face_nodes,
               KOKKOS_LAMBDA(const int f, const int m) {
                 const int e = faces(f, 0), lf = faces(f, 1);
                 const int n = L::volume_node_of(m, lf);
                 Cons outer;
                 for (int v = 0; v < nvar; ++v) outer[v] = recv(f, v * L::face_nodes + m);
                 const Cons inner = load<Eq>(q, e, n);
                 const physics::Aux a = load_aux(aux, e, n);
                 const typename Eq::Prim w = node_primitive(eq, inner, a.phi, th, e, n);
                 if (curved)
                   one_sided_face_node(eq, inner, w, outer, a, contravariant(metrics, e, n, lf / 2), faces(f, 2), S,
                                       e, lf, m);
                 else
                   one_sided_face_node(eq, inner, w, outer, a, lf / 2, faces(f, 2), S, e, lf, m);
               });
}

template <int N, class Eq>
void DgOperator<N, Eq>::boundary_faces(const StateView& q) {
  ScopedTimer timer(timers_, "boundary_faces");
  for_each_wall([&](int wall, const auto& bc) { boundary_faces(q, wall, bc); });
}

template <int N, class Eq>
template <class Condition>
void DgOperator<N, Eq>::boundary_faces(const StateView& q, int wall, const Condition& bc) {
  const int first = wall_begin_[wall];
  const auto faces = boundary_;
  const auto S = surface_;
  const auto flux = wall_flux_;
  const auto aux = aux_;
  const auto th = thermo_;
  const auto metrics = metrics_;
  const bool curved = curved_;
  const Eq eq = eq_;
  // The wall is the plus side of a high face and the minus side of a low one.
  const int d = wall / 2, lf = wall;
  const bool minus = wall % 2;
  parallel_for("dg::boundary_faces", wall_begin_[wall + 1] - first, L::face_nodes,
               KOKKOS_LAMBDA(const int i, const int m) {
                 const int f = first + i, e = faces(f, 0);
                 const int n = L::volume_node_of(m, lf);
                 const Cons inner = load<Eq>(q, e, n);
                 const physics::Aux a = load_aux(aux, e, n);
                 const typename Eq::Prim w = node_primitive(eq, inner, a.phi, th, e, n);
                 Cons star;
                 if (curved) {  // the wall along the terrain's (or the mapped top's) normal
                   const physics::VectorNormal ja = contravariant(metrics, e, n, d);
                   star = one_sided_face_node(eq, inner, w, bc.outer_state(eq, inner, unit_normal(ja)), a, ja, minus,
                                              S, e, lf, m);
                 } else {
                   star = one_sided_face_node(eq, inner, w, bc.outer_state(eq, inner, d), a, d, minus, S, e, lf, m);
                 }
                 for (int c = 0; c < Eq::nconserved; ++c) flux(f, c, m) = star[Eq::conserved(c)];
               });
}

/// Rates at which the conserved quantities enter through the walls, summed over ranks
/// with the exact sum: per wall face node, (face quadrature weight) (inward sign) of
/// F* - F_v*, the same boundary term the discrete volume integrals see, so the ledger
/// closes to round-off. Each face sums its nodes in a fixed order; the faces and ranks
/// are summed exactly, so the rates do not depend on the partition.
template <int N, class Eq>
void DgOperator<N, Eq>::boundary_rates() {
  if (!walls_anywhere_) return;  // a periodic box: nothing crosses a boundary
  const auto faces = boundary_;
  const auto flux = wall_flux_;
  const auto rates = wall_rates_;
  const Basis<N> b = basis_;
  const Real h0 = 2 / two_over_h_[0], h1 = 2 / two_over_h_[1];
  const auto hz = two_over_hz_;
  const bool curved = curved_;
  const int nb = static_cast<int>(faces.extent(0));
  parallel_for("dg::wall_rates", nb, KOKKOS_LAMBDA(const int f) {
    const Real h[3] = {h0, h1, 2 / hz(faces(f, 0))};
    const int lf = faces(f, 1), d = lf / 2;
    for (int c = 0; c < Eq::nconserved; ++c) {
      Real sum = 0;
      for (int m = 0; m < L::face_nodes; ++m) {
        const int n = L::volume_node_of(m, lf);
        // Curved: F* holds the surface element already.
        Real area = 1;
        for (int k = 0; k < 3; ++k)
          if (k != d) area *= curved ? b.w[L::index(n, k)] : b.w[L::index(n, k)] * h[k] / 2;
        sum += (lf % 2 ? -area : area) * flux(f, c, m);
      }
      rates(f, c) = sum;
    }
  });
  Kokkos::deep_copy(wall_rates_host_, rates);  // a no-op on host backends (the same memory)
  constexpr int nc = Eq::nconserved;
  std::vector<ExactSum> sums(static_cast<size_t>(members_) * nc);  // each member's own
  for (int f = 0; f < nb; ++f)
    for (int c = 0; c < nc; ++c) sums[static_cast<size_t>(boundary_member_[f]) * nc + c].add(wall_rates_host_(f, c));
  allreduce(comm_, sums);
  for (size_t i = 0; i < sums.size(); ++i) ledger_rates_[i] += sums[i].value();
}

template <int N, class Eq>
SurfaceLift<N, Eq::nvar> DgOperator<N, Eq>::surface_lift_terms() const {
  SurfaceLift<N, nvar> lift;
  lift.S = surface_;
  if (lift_folds_viscous_faces()) {
    lift.traces = vtrace_;
    lift.neighbors = neighbors_;
    lift.first_viscous = first_viscous;
  }
  lift.two_over_hz = two_over_hz_;
  lift.inverse_jacobian = inverse_jacobian_;
  lift.w0 = basis_.w[0];  // w_0 = w_N for LGL
  lift.l0 = two_over_h_[0] / lift.w0;
  lift.l1 = two_over_h_[1] / lift.w0;
  lift.curved = curved_;
  return lift;
}

template <int N, class Eq>
void DgOperator<N, Eq>::surface_lift(const StateView& dq) {
  ScopedTimer timer(timers_, "surface_lift");
  const SurfaceLift<N, nvar> lift = surface_lift_terms();
  if constexpr (host_backend) {
    parallel_for("dg::surface_lift", elements_, KOKKOS_LAMBDA(const int e) { lift.add_element(e, dq); });
  } else {
    parallel_for_nodes<L::n1>("dg::surface_lift", elements_,
                             KOKKOS_LAMBDA(const int e, const int i, const int j, const int k) {
      lift.add_node(e, i, j, k, dq);
    });
  }
}

}  // namespace squall::dg

#include "solver/dg_operator_sources.hpp"
#include "solver/dg_operator_split.hpp"
