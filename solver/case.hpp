#pragma once
/// What the solver needs of a case: its initial state (as a device kernel over the
/// nodes), whether gravity acts, an exact solution where one is known, and diagnostics
/// of its own. Cases (cases/) implement this and are listed in cases/registry.cpp.
#include <stdexcept>
#include <mpi.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/types.hpp"
#include "io/config_keys.hpp"
#include "physics/boundary_conditions.hpp"
#include "physics/moist_thermodynamics.hpp"
#include "solver/case_source.hpp"
#include "solver/dg_layout.hpp"

namespace squall {

/// Host copies of the local solution, for diagnostics at output times.
struct HostSolution {
  HostView<Real***> q;    ///< (element, variable, node)
  HostView<Real***> aux;  ///< (element, aux variable, node)
  HostView<Real***> x;    ///< (element, direction, node)
  std::vector<int> global_elements;
  Real time = 0;
  std::vector<double> lgl_weights;          ///< quadrature weights (N+1)
  std::vector<double> lgl_derivative;       ///< D[i][j] = l_j'(x_i), row-major (N+1)^2
  std::array<double, 2> element_size{};     ///< h_x, h_y [m]
  std::vector<double> element_height;       ///< h_z of each local element [m]
  /// Edge length along d of local element e [m].
  double size(std::size_t e, int d) const { return d < 2 ? element_size[d] : element_height[e]; }
  /// The volume of local element e over the reference volume 8 (affine elements; curved
  /// ones have a Jacobian per node, in the solver's NodeWeights).
  double jacobian(std::size_t e) const {
    if (curved) throw std::logic_error("HostSolution::jacobian: the elements are curved (terrain)");
    return element_size[0] * element_size[1] * element_height[e] / 8;
  }
  bool curved = false;                      ///< curved elements (terrain): element sizes are the flat brick's
  double domain_volume = 0;                 ///< [m^3]
  /// The conservative state of node n of element e.
  dg::Equations::Cons state(std::size_t e, std::size_t n) const {
    dg::Equations::Cons s;
    for (int v = 0; v < dg::Equations::nvar; ++v) s[v] = q(e, v, n);
    return s;
  }
};

struct CaseDiagnostic {
  std::string name;
  double value;
};

class Case {
 public:
  virtual ~Case() = default;
  /// Gravitational acceleration [m s^-2]; 0 for cases without gravity.
  virtual Real gravity() const { return physics::grav; }
  /// The equation set with this case's gas constants (the defaults of
  /// physics::GasParameters unless a case's reference says otherwise); what the
  /// operator solves, and what the case's own functors take their constants from.
  virtual dg::Equations equations() const { return {}; }
  /// Whether the case is moist: its state carries the total water (physics::MoistAir,
  /// with the constants of water()); dry cases solve physics::DryAir.
  virtual bool moist() const { return false; }
  virtual physics::WaterParameters water() const { return {}; }
  /// Fills the conservative state and the aux fields (reference density and pressure,
  /// geopotential) at the nodes with coordinates x.
  virtual void initialize(const dg::CoordView& x, const dg::StateView& q,
                          const dg::AuxView& aux) const = 0;
  /// Fills the tracer densities rho c_k (state variables first .. first + tracers: the
  /// equation set's i_tracer on) after initialize(); by default every tracer starts at zero.
  virtual void initialize_tracers(const dg::CoordView& x, const dg::StateView& q, int first, int tracers) const;
  virtual bool has_exact_solution() const { return false; }
  /// The exact conservative state at time t (only where has_exact_solution()).
  virtual void exact_solution(Real /*t*/, const dg::CoordView& /*x*/,
                              const dg::StateView& /*q*/) const {}
  /// The kind of each wall: the config's ([boundary]) unless the case says otherwise.
  virtual physics::Walls walls(const physics::Walls& configured) const { return configured; }
  /// Whether the case adds sources of its own (add_sources).
  virtual bool has_sources() const { return false; }
  /// dq += the case's sources, in every right-hand side, after the operator's own
  /// (buoyancy, sponge): a kernel launched with add_case_source (solver/case_source.hpp),
  /// which also reports what the sources add to the conserved quantities.
  virtual void add_sources(const SourceArgs& /*a*/) const {}
  /// After every time step, with the new state (collective).
  virtual void post_step(Real /*t*/, const dg::StateView& /*q*/, MPI_Comm /*comm*/) {}
  /// Numbers the case carries from output to output, kept in checkpoints so that a
  /// restart continues with them (restore_state gets back what saved_state gave).
  virtual std::vector<double> saved_state() const { return {}; }
  virtual void restore_state(const std::vector<double>& /*values*/) {}
  /// Extra diagnostics.csv columns of this case, written at every output.
  virtual std::vector<std::string> time_series_columns() const { return {}; }
  /// Their values for the current solution (collective over comm).
  virtual std::vector<double> time_series(const HostSolution& /*s*/, MPI_Comm /*comm*/) const { return {}; }
  /// Case-specific diagnostics of the current solution (collective over comm).
  virtual std::vector<CaseDiagnostic> diagnostics(const HostSolution& /*s*/,
                                                  MPI_Comm /*comm*/) const {
    return {};
  }
};

struct CaseInfo {
  std::string name;
  std::string description;  ///< one line, shown by `squall cases`
  std::unique_ptr<Case> (*make)(const Config&) = nullptr;
  /// The case's own config keys, [case] section, owner = name; their values reach the
  /// case as config.case_.numbers.
  std::vector<io::KeySpec> keys{};
};

}  // namespace squall
