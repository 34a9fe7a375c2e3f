#pragma once
/// The DGSEM right-hand side of an equation set Eq (physics::DryAir<K>: the
/// compressible Navier-Stokes equations with gravity and K passive tracers) on the brick: strong form, collocated LGL
/// quadrature, Rusanov surface flux, split-form volume integral as an option, BR1
/// viscous terms (solver/dg_viscous_impl.hpp), walls as boundary-condition types
/// (physics/boundary_conditions.hpp), sources as source types (physics/sources.hpp)
/// (Kopriva, Implementing Spectral Methods for PDEs, 2009, ch. 8; Hesthaven & Warburton,
/// Nodal DG Methods, 2008).
///
///   dq/dt = -sum_d (2/h_d) [ D F_d(q) + L_d (F*_d - F_d(q)) ] + S(q)
///
/// with L_d lifting face values to the end nodes (1/w_N at the high face, -1/w_0 at the
/// low face). Every face flux is computed once, from the (minus, plus) order of the
/// global mesh, and written to exactly one slot per element face, so the right-hand side
/// has no atomics and does not depend on the partition.
#include <functional>
#include <memory>

#include "core/timers.hpp"
#include "mesh/halo_exchange.hpp"
#include "mesh/local_mesh.hpp"
#include "solver/basis.hpp"
#include "solver/case_source.hpp"
#include "solver/column_operations.hpp"
#include "solver/dg_layout.hpp"
#include "solver/geometry.hpp"
#include "solver/time_integrator.hpp"
#include "physics/sources.hpp"
#include "physics/large_scale_forcing.hpp"
#include "physics/boundary_conditions.hpp"
#include "physics/moist_thermodynamics.hpp"
#include "physics/radiation.hpp"

namespace squall::dg {

enum class Closure { constant, smagorinsky, vreman };

/// The constant an element's closure takes from C_s (at_element): C_s^2 for Smagorinsky,
/// c = 2.5 C_s^2 for Vreman, 0 for none.
inline Real model_constant(Closure closure, Real cs) {
  switch (closure) {
    case Closure::smagorinsky: return cs * cs;
    case Closure::vreman: return Real(2.5) * cs * cs;
    default: return 0;
  }
}

template <int N, class Eq, class ClosureModel>
struct NodeViscousFlux;

/// Stored components of the viscous flux: those from Eq::first_viscous on (the density
/// has none), and the index of component v of F_v,d in the viscous flux array.
template <class Eq>
KOKKOS_INLINE_FUNCTION constexpr int vflux_index(int d, int v) {
  return d * Eq::nvflux + v - Eq::first_viscous;
}

/// Which of equation set Eq's gradient variables BR1 lifts: the velocities and the
/// scalars (q_t, tracers) always, T where the heat flux diffuses it, theta where theta
/// diffusion or Smagorinsky's Ri use it. The gradient passes form g* - g of these alone,
/// and the viscous kernels read and differentiate these alone (the others would feed
/// nothing).
template <class Eq>
struct LiftedGradients {
  bool T, theta;
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(int c) const {
    return (c != Eq::g_T || T) && (c != Eq::g_theta || theta);
  }
};

/// Component v (Eq::first_viscous..Eq::nvar-1) of F_v,d, d normal to element face lf, at face node m: what the
/// viscous face kernels read. The element layout stores only these traces, face by face
/// (contiguous for the face kernels); the node layout reads them from its F_v at every node.
template <int N, class Eq>
struct ViscousTraces {
  DeviceView<Real****> faces;  ///< (element, face, v - 1, face node), or empty
  DeviceView<Real***> volume;  ///< (element, vflux_index<Eq>(d, v), node), when faces is empty
  bool by_face;
  KOKKOS_INLINE_FUNCTION Real operator()(int e, int lf, int v, int m) const;
};

/// The central viscous flux less one side's own: {F_v} - F_v,own.
KOKKOS_INLINE_FUNCTION Real central_minus_own(Real own, Real other) { return 0.5 * (own + other) - own; }

/// The surface lift: dq += sign (lifting factor) (F* - F) at the nodes of each element
/// face, the lifting factor along d being (2/h_d) / w_0 on a brick and (1/J) / w_0 of the
/// node on curved elements. A node on several faces (edges, corners) takes their terms in
/// the order of the directions 0, 1, 2, whichever way the terms are visited: node by node
/// (add_node, the thread per node of devices) or face by face (add_element, one element
/// per thread on host backends, face nodes contiguous), so both give the same bits.
/// add_element also folds in the interior faces' central viscous flux when `traces` (the
/// element and team layouts' viscous flux traces) is given: F* - F less
/// {F_v} - F_v,own of the element's own trace and its neighbour's, the value the pass over
/// the interior faces would store into S first (the same bits), formed where it is read,
/// which saves that pass. Faces without a neighbour on this rank (MPI faces, walls) have it
/// in S already.
template <int N, int NV>
struct SurfaceLift {
  using L = Layout<N>;
  DeviceView<Real****> S;        ///< F* - F (element, face, v, face node)
  DeviceView<Real****> traces;   ///< viscous flux traces (element, face, v - first_viscous, face node), or empty
  DeviceView<int* [6]> neighbors;  ///< the neighbour across each face (-1: none on this rank)
  DeviceView<Real*> two_over_hz;   ///< 2 / h_z of each element (brick)
  DeviceView<Real**> inverse_jacobian;  ///< 1/J of each node (curved)
  Real w0 = 1, l0 = 0, l1 = 0;  ///< w_0; (2/h_x) / w_0, (2/h_y) / w_0 (brick)
  int first_viscous = NV;       ///< the first state variable with a viscous flux
  bool curved = false;

  /// The terms of node (i, j, k) of element e (without the viscous fold).
  template <class DqView>
  KOKKOS_INLINE_FUNCTION void add_node(int e, int i, int j, int k, const DqView& dq) const {
    const int n = L::node(i, j, k);
    const Real curved_lift = curved ? inverse_jacobian(e, n) / w0 : Real(0);
    // The end node `index` along direction d with lifting factor `lift`, face node m.
    const auto face = [&](int index, int d, Real lift, int m) {
      if (index != 0 && index != N) return;
      const int lf = 2 * d + (index == N ? 1 : 0);
      const Real sign = index == N ? -1 : 1;
      for (int v = 0; v < NV; ++v) dq(e, v, n) += sign * lift * S(e, lf, v, m);
    };
    face(i, 0, curved ? curved_lift : l0, j + L::n1 * k);
    face(j, 1, curved ? curved_lift : l1, i + L::n1 * k);
    face(k, 2, curved ? curved_lift : two_over_hz(e) / w0, i + L::n1 * j);
  }
  /// The terms of all nodes of element e, face by face.
  template <class DqView>
  KOKKOS_INLINE_FUNCTION void add_element(int e, const DqView& dq) const {
    for (int lf = 0; lf < 6; ++lf) {
      const int d = lf / 2;
      const Real sign = lf % 2 ? -1 : 1;
      const Real lift = d == 0 ? l0 : d == 1 ? l1 : two_over_hz(e) / w0;
      const int other = traces.extent(0) > 0 ? neighbors(e, lf) : -1;
      for (int v = 0; v < NV; ++v) {
        const bool fold = other >= 0 && v >= first_viscous;
        const int c = v - first_viscous;
        for (int m = 0; m < L::face_nodes; ++m) {
          const int n = L::volume_node_of(m, lf);
          Real s = S(e, lf, v, m);
          if (fold) s -= central_minus_own(traces(e, lf, c, m), traces(other, lf ^ 1, c, m));
          dq(e, v, n) += sign * (curved ? inverse_jacobian(e, n) / w0 : lift) * s;
        }
      }
    }
  }
};

/// How the element-local kernels (split-form volume term, lifting with the viscous flux
/// and its divergence) are laid out; the bits are the same either way (tested).
/// elements: one element per thread, intermediate values of the element in local arrays
/// (split-form points, two-point fluxes formed once per pair, the viscous flux), which
/// suits CPU caches. nodes: one thread per node, intermediate values in stored arrays,
/// which suits GPUs (coalesced loads, many threads). teams: the nodes layout, but the
/// lifting, the viscous flux and its divergence run as one team of threads per element
/// (ViscousTeamKernel) that keeps the element's viscous flux in the team's scratch
/// (shared) memory instead of a stored array: one pass over global memory less, and
/// 3 nvflux values per node less to store.
enum class KernelLayout { elements, nodes, teams };

/// sum_m D[i][m] f(e, c, node n with its index along d replaced by m), i the index of n
/// along d: the derivative along d of component c of a nodal field, on the reference element.
template <int N, class View>
KOKKOS_INLINE_FUNCTION Real derivative_along(const Basis<N>& b, const View& f, int e, int c, int n, int d) {
  using L = Layout<N>;
  const int i = L::index(n, d);
  Real sum = 0;
  for (int m = 0; m < L::n1; ++m) sum += b.D[i][m] * f(e, c, L::along(n, d, m));
  return sum;
}

/// derivative_along for the node (i, j, k), given by its indices. f may also give packs
/// of several elements' values (core/simd.hpp), and the derivative is then a pack.
template <int N, class View>
KOKKOS_INLINE_FUNCTION auto derivative_at(const Basis<N>& b, const View& f, int e, int c, int i, int j, int k, int d) {
  using L = Layout<N>;
  std::decay_t<decltype(f(e, c, 0))> sum = 0;
  if (d == 0) {
    for (int m = 0; m < L::n1; ++m) sum += b.D[i][m] * f(e, c, L::node(m, j, k));
  } else if (d == 1) {
    for (int m = 0; m < L::n1; ++m) sum += b.D[j][m] * f(e, c, L::node(i, m, k));
  } else {
    for (int m = 0; m < L::n1; ++m) sum += b.D[k][m] * f(e, c, L::node(i, j, m));
  }
  return sum;
}


/// Runtime choices of the operator, made once.
struct OperatorOptions {
  physics::GasParameters gas{};  ///< the equation set's gas constants
  physics::WaterParameters water{};  ///< the constants of water (moist air)
  Real gravity = 0;         ///< [m s^-2] scales the buoyancy source (0: off)
  bool split_form = true;   ///< Kennedy-Gruber flux differencing instead of the standard volume term
  KernelLayout kernel_layout = host_backend ? KernelLayout::elements : KernelLayout::nodes;
  /// Element layout on host backends: the viscous kernel takes pack_width elements at
  /// once, one per vector lane (core/simd.hpp), on affine meshes (dry and moist air); the
  /// same bits as one at a time.
  bool element_packs = true;
  Real viscosity = 0;       ///< kinematic viscosity nu [m^2 s^-1] (0: Euler, no viscous phases)
  Real prandtl = 0.71;      ///< nu / kappa
  Closure closure = Closure::constant;  ///< subgrid model (needs viscous phases: see viscous())
  Real smagorinsky_cs = 0.17;           ///< C_s (Vreman: c = 2.5 C_s^2)
  /// A batch (mesh.members() > 1): each member's C_s; empty: smagorinsky_cs for every one.
  std::vector<Real> member_smagorinsky_cs;
  Real turbulent_prandtl = 1.0 / 3.0;   ///< nu_t / kappa_t
  bool cloud_interior = false;  ///< Smagorinsky's saturated N^2 only inside clouds (physics.cloud_stratification)
  Real schmidt = 1.0;                   ///< tracers: nu / D
  Real turbulent_schmidt = 1.0 / 3.0;   ///< tracers: nu_t / D_t
  bool theta_diffusion = true;          ///< heat flux down grad theta (else grad T)
  bool sponge = false;                  ///< Rayleigh damping near the top
  physics::Sponge sponge_layer{};
  physics::Walls walls{};  ///< kind (and temperature) of each wall
  /// Large-scale forcing ([forcing]: Coriolis, subsidence, heating, drying, the
  /// geostrophic sponge); inactive by default. Heights in its profiles are above
  /// forcing_bottom.
  physics::LargeScaleForcing forcing{};
  Real forcing_bottom = 0;
  /// A batch: each member's forcing; empty: `forcing` for every one. The members may
  /// differ in the values only (the same terms on: the forcing kernel's shape).
  std::vector<physics::LargeScaleForcing> member_forcing;
  /// A batch: each member's [surface] numbers; empty: walls.surface for every one.
  std::vector<physics::SurfaceParameters> member_surface;
  /// Radiation ([radiation] scheme = "dycoms"; moist air only), heights above
  /// forcing_bottom.
  bool radiation = false;
  physics::DycomsRadiation radiation_scheme{};
  /// A batch: each member's radiation numbers; empty: radiation_scheme for every one. The
  /// members diagnose z_i (inversion_qt > 0) all or none.
  std::vector<physics::DycomsRadiation> member_radiation;
  /// A case's own sources (Case::add_sources), or empty.
  std::function<void(const SourceArgs&)> case_sources;
  /// Viscous phases run when there is a molecular viscosity or a subgrid model.
  bool viscous() const { return viscosity > 0 || closure != Closure::constant; }
};

template <int N, class Eq>
class DgOperator {
 public:
  using L = Layout<N>;
  using Cons = typename Eq::Cons;
  static constexpr int nvar = Eq::nvar;
  static constexpr int nvflux = Eq::nvflux;
  static constexpr int first_viscous = Eq::first_viscous;

  /// `aux` holds the reference state and geopotential of every node.
  DgOperator(const mesh::LocalMesh& mesh, const Basis<N>& basis, const Geometry& geometry,
             AuxView aux, const OperatorOptions& options, MPI_Comm comm, Timers& timers);

  int element_count() const { return elements_; }
  /// Reals in a state: elements x variables x nodes.
  std::size_t state_size() const { return static_cast<std::size_t>(elements_) * nvar * L::nodes; }
  StateView state_view(const FlatView& flat) const { return StateView(flat.data(), elements_, nvar, L::nodes); }

  /// dq = rhs(t, q). Collective (halo exchange).
  void operator()(Real t, const FlatView& q, const FlatView& dq);

  /// Rates at which the conserved quantities (Eq::conserved: mass, energy, tracers)
  /// changed in the last call through what crossed the walls and what sources added
  /// [kg/s, J/s], summed over ranks exactly. The time integrator integrates them with the
  /// state's weights, for the budgets. In a batch (mesh.members() > 1) each member's
  /// rates are its own: member m's start at m * Eq::nconserved.
  const double* ledger_rates_of_last_call() const { return ledger_rates_.data(); }

  /// Largest total diffusivity max(nu + nu_t, kappa + kappa_t, D + D_t) [m^2 s^-1] over this
  /// rank's nodes in the last call (subgrid models included), for the explicit
  /// diffusion limit of the time step; before the first call, and without viscous
  /// terms, the molecular one. Not reduced over ranks.
  Real max_diffusivity() const { return max_diffusivity_; }
  /// The same for each member of a batch alone (its own elements), in one launch on a
  /// device (parallel_max_groups); max_diffusivity() for each, before the first call or
  /// without a batch's viscous terms. Not reduced over ranks.
  std::vector<Real> member_max_diffusivities() const {
    std::vector<Real> out(static_cast<size_t>(members_), max_diffusivity_);
    if (element_diffusivity_.extent(0) == 0 || !evaluated_) return out;
    const auto d = element_diffusivity_;
    const int per_member = member_elements_;
    parallel_max_groups("dg::member_max_diffusivity", per_member, member_maxima_,
                        KOKKOS_LAMBDA(const int m, const int e) { return d(m * per_member + e); });
    Kokkos::deep_copy(member_maxima_host_, member_maxima_);
    for (int m = 0; m < members_; ++m) out[static_cast<size_t>(m)] = member_maxima_host_(m);
    return out;
  }
  /// max(nu, kappa, D): D only with tracers.
  Real max_molecular_diffusivity() const {
    return std::max(viscosity_, Eq::ntracers > 0 ? std::max(diffusivity_, tracer_diffusivity_) : diffusivity_);
  }
  /// The SubgridFlux quantities at every node of state q into out (element, quantity,
  /// node), from the lifted gradients and the closure of the right-hand side, which is
  /// evaluated once into `scratch` to form them. Collective. What the time loop reads of
  /// the operator (max_diffusivity, evaluated, the ledger's rates) stays as it was, so
  /// writing profiles does not change the run, and the phase timers do not count it.
  /// Needs viscous terms.
  void subgrid_fluxes(Real t, const FlatView& q, const FlatView& scratch, const DeviceView<Real***>& out);
  /// dq = rhs(t, q) into `scratch` as a diagnostic: what the time loop reads of the
  /// operator (max_diffusivity, evaluated, the ledger's rates) stays as it was, and the
  /// phase timers do not count it. Afterwards the operator's node values (e.g.
  /// radiative_flux()) are those of q. Collective.
  void evaluate_for_diagnostics(Real t, const FlatView& q, const FlatView& scratch);
  bool viscous() const { return viscous_; }
  bool radiation() const { return radiation_; }
  /// The radiation's net upward flux F [W m-2] at every node (element, node) in the last
  /// evaluation; empty without radiation.
  const DeviceView<Real**>& radiative_flux() const { return radiation_flux_; }
  /// Whether operator() has run since construction.
  bool evaluated() const { return evaluated_; }

  // The phases of operator(), in order. Public because CUDA does not allow device
  // lambdas in private member functions.
  void start_halo_exchange(const StateView& q);
  void volume_integral(const StateView& q, const StateView& dq);
  template <bool Curved>
  void volume_integral_split(const StateView& dq);
  template <bool Curved>
  void volume_integral_split_lines(const StateView& q, const StateView& dq);
  void interior_faces(const StateView& q);
  template <bool Curved>
  void interior_faces(const StateView& q);
  void mpi_faces(const StateView& q);
  void boundary_faces(const StateView& q);
  template <class Condition>
  void boundary_faces(const StateView& q, int wall, const Condition& bc);
  void boundary_rates();
  /// The surface lift's terms (SurfaceLift).
  SurfaceLift<N, Eq::nvar> surface_lift_terms() const;
  /// Whether the surface lift forms the interior faces' viscous flux correction itself
  /// (SurfaceLift::add_element): on host backends with the element or team layouts.
  bool lift_folds_viscous_faces() const {
    return host_backend && viscous_ && kernel_layout_ != KernelLayout::nodes;
  }
  void surface_lift(const StateView& dq);
  void sources(Real t, const StateView& q, const StateView& dq);
  template <class Source>
  void forcing_sources(Real t, const StateView& q, const StateView& dq, const Source& first);
  template <class Source>
  void add_sources(Real t, const StateView& q, const StateView& dq, const Source& source);
  void radiation_sources(const StateView& q, const StateView& dq);
  // Viscous phases (BR1; solver/dg_viscous_impl.hpp), only when viscosity > 0.
  /// The gradient variables the viscous phases use: T unless heat diffuses down grad
  /// theta, theta where theta_gradient_ says so.
  LiftedGradients<Eq> lifted_gradients() const { return {!theta_diffusion_, theta_gradient_}; }
  void gradients_local();
  void gradients_remote(const StateView& q);
  void viscous_fluxes_local(const StateView& q, const StateView& dq);
  void viscous_fluxes_remote(const StateView& q);
  template <class Condition>
  void viscous_wall_faces(const StateView& q, int wall, const Condition& bc);
  template <class Condition>
  void gradient_wall_faces(const StateView& q, int wall, const Condition& bc);
  template <class F>
  void with_closure(const F& f) const;
  /// f(wall, its boundary-condition object) for each wall with faces on this rank (one
  /// kernel instantiation per kind).
  template <class F>
  void for_each_wall(const F& f) const {
    for (int wall = 0; wall < 6; ++wall)
      if (wall_begin_[wall + 1] > wall_begin_[wall])
        physics::with_wall_condition(walls_, wall, [&](const auto& bc) { f(wall, bc); });
  }
  template <class ClosureModel>
  NodeViscousFlux<N, Eq, ClosureModel> node_viscous_flux(const StateView& q, const ClosureModel& closure) const;
  template <class ClosureModel>
  void lift_and_viscous_flux(const StateView& q, const ClosureModel& closure);
  template <class ClosureModel>
  void subgrid_flux_nodes(const StateView& q, const ClosureModel& closure, const DeviceView<Real***>& out) const;
  ViscousTraces<N, Eq> viscous_traces() const { return {vtrace_, vflux_, kernel_layout_ != KernelLayout::nodes}; }
  template <class ClosureModel>
  Real lift_viscous_volume(const StateView& q, const StateView& dq, const ClosureModel& closure,
                           const DeviceView<int*>& list);

 private:
  int elements_;
  Eq eq_;
  Basis<N> basis_;
  Real two_over_h_[2];             ///< 2 / h along x and y
  DeviceView<Real*> two_over_hz_;  ///< 2 / h_z of each element
  Real gravity_;
  bool split_form_;
  KernelLayout kernel_layout_;
  bool element_packs_;  ///< OperatorOptions::element_packs
  Real viscosity_, diffusivity_, tracer_diffusivity_;
  bool viscous_;
  Closure closure_;
  Real prandtl_t_, schmidt_t_;
  bool cloud_interior_;
  DeviceView<Real*> filter_width_;  ///< each element's filter width (its volume)^(1/3) / (N + 1)
  DeviceView<Real*> element_diffusivity_;  ///< a batch with viscous terms: each element's largest diffusivity
  DeviceView<Real*> member_maxima_;  ///< a batch with viscous terms: each member's largest diffusivity
  typename DeviceView<Real*>::host_mirror_type member_maxima_host_;
  DeviceView<Real*> model_constant_;  ///< each element's closure constant from its member's C_s (model_constant)
  bool sponge_;
  bool theta_diffusion_;
  bool theta_gradient_;  ///< grad theta is used (theta diffusion, or Smagorinsky's Ri)
  physics::Sponge sponge_layer_;
  physics::Walls walls_;
  bool walls_anywhere_ = false;  ///< some direction is not periodic
  int members_ = 1;
  int member_elements_ = 0;  ///< elements of each member on this rank (member m: m * member_elements_ on)
  DeviceView<physics::SurfaceParameters*> member_surface_;  ///< each member's [surface] numbers
  DeviceView<Real*> member_coriolis_;  ///< each member's Coriolis parameter f (forcing)
  std::vector<double> ledger_rates_;  ///< members_ x Eq::nconserved
  std::vector<int> boundary_member_;  ///< the batch member of each boundary face
  std::function<void(const SourceArgs&)> case_sources_;
  physics::LargeScaleForcing forcing_;
  Real forcing_bottom_;
  DeviceView<Real***> forcing_factors_;  ///< (element, physics::ForcingFactors, node)
  bool radiation_ = false;
  physics::DycomsRadiation radiation_scheme_;
  DeviceView<physics::DycomsRadiation*> member_radiation_;  ///< radiation: each member's numbers
  std::unique_ptr<ColumnOperations<N>> columns_;  ///< radiation: the liquid water paths
  DeviceView<Real**> water_density_;  ///< radiation: rho q_l per node (element, node)
  DeviceView<Real**> lwp_below_, lwp_above_;  ///< radiation: int rho q_l dz below and above each node
  DeviceView<Real**> radiation_flux_;          ///< radiation: F at each node in the last evaluation
  DeviceView<Real**> inversion_mask_, inversion_;  ///< radiation with a diagnosed z_i: z where q_t >= the threshold, z_i
  DeviceView<Real**> node_weights_;    ///< quadrature weight times Jacobian (element, node) (sources' ledger)
  DeviceView<int*> conserved_;         ///< Eq::conserved(c) (case sources)
  DeviceView<Real**> element_rates_;   ///< (element, conserved quantity) (case sources)
  Real max_diffusivity_ = 0;
  bool evaluated_ = false;
  bool curved_;                       ///< curved elements: the metric terms replace h and h_z
  DeviceView<Real***> metrics_;       ///< curved: J a^i per node (Geometry::metrics)
  DeviceView<Real**> inverse_jacobian_;  ///< curved: 1 / J per node
  MPI_Comm comm_;
  CoordView x_;
  AuxView aux_;
  DeviceView<int* [3]> interior_;  ///< (element_minus, element_plus, direction)
  /// Host backends, dry air: 1 where every plus node of interior face f has its minus
  /// node's p_ref and phi (interior_face_packs), else 0; empty otherwise.
  DeviceView<int*> interior_same_reference_;
  DeviceView<int* [2]> boundary_;  ///< (element, local face), grouped by wall
  int wall_begin_[7] = {};         ///< wall w's faces are boundary_(wall_begin_[w] .. wall_begin_[w + 1])
  DeviceView<Real***> wall_flux_;  ///< F* - F_v* of the conserved quantities (face, conserved index, face node)
  DeviceView<Real**> wall_rates_;  ///< their face integrals (face, conserved index)
  typename DeviceView<Real**>::host_mirror_type wall_rates_host_;  ///< their host copy, for the exact sum
  DeviceView<int* [3]> mpi_;       ///< (element, local face, 1 if this side is minus)
  DeviceView<Real***> flux_;       ///< standard form: F_d(q) at every node (element, d * nvar + v, node)
  DeviceView<Real***> points_;     ///< split form: the split point of each node (Eq::split_values)
  /// Eq::thermo_values of each node from the pointwise pass (Eq::nthermo > 0), (element,
  /// node, value): the faces read a node's values from one cache line.
  DeviceView<Real***> thermo_;
  DeviceView<Real****> surface_;   ///< F* - F(q) per element face: (element, face, v, face node)
  std::unique_ptr<mesh::HaloExchange> halo_;
  // Viscous work arrays.
  DeviceView<Real***> gvars_;          ///< gradient variables (Eq::gradient_variables) per node: (element, var, node)
  DeviceView<Real**> exner_;           ///< Pi(p) per node, where theta is lifted (element, node); else empty
  DeviceView<Real**> exner_ref_;       ///< Pi(p_ref) per node, for moist air's exner_near; else empty
  DeviceView<Real****> grad_surface_;  ///< g* - g per element face: (element, face, var, face node)
  DeviceView<int* [6]> neighbors_;   ///< element layout: element across each interior face, else -1
  DeviceView<int*> halo_elements_;   ///< elements with an MPI face (element layout: lifted first)
  DeviceView<int*> inner_elements_;  ///< the others
  DeviceView<Real***> vflux_;          ///< node layout: F_v,d per node (element, vflux_index<Eq>(d, v), node)
  DeviceView<Real****> vtrace_;        ///< element layout: F_v,d on the faces normal to d (element, face, v - 1, face node)
  std::unique_ptr<mesh::HaloExchange> viscous_halo_;  ///< F_v traces on MPI faces
  Timers& timers_;
};

}  // namespace squall::dg

#include "solver/dg_operator_impl.hpp"
#include "solver/dg_viscous_impl.hpp"
