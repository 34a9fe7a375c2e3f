#pragma once
/// What the moist LES cases of the intercomparisons (bomex, dycoms_rf01) share: an
/// initial state from profiles of theta_l, q_t, u and v in hydrostatic balance
/// (cases/sounding.hpp; T from theta_l, q_t and p by bisection, with the condensate of
/// saturation at p), random perturbations below a height, uniform in
/// [-case.theta_perturbation, +] of theta_l and [-case.qt_perturbation, +] of q_t at the
/// background's pressure (a hash of the node's coordinates and case.seed, so the field
/// is the same on any rank count), the unperturbed background's own discrete state as
/// every node's reference state, and the cloud statistics of diagnostics.csv: liquid
/// water path, cloud cover (the area fraction of columns with q_l > 1e-5 kg/kg
/// anywhere), cloud base and top (the lowest and highest node with q_l > 1e-5; NaN
/// without cloud), the maximum of q_l and w, and, where the case names a q_t threshold,
/// the inversion height z_i: the mean over columns of the highest node with q_t at or
/// above it. The forcing and surface fluxes are config keys ([forcing], [surface],
/// [radiation]): these cases add no sources of their own.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cases/registry.hpp"
#include "solver/case.hpp"

namespace squall::cases {

/// The profiles of a moist case, functions of the height above the bottom [m].
struct MoistSounding {
  std::function<Real(Real)> theta_l;  ///< [K]
  std::function<Real(Real)> q_t;      ///< [kg/kg]
  std::function<Real(Real)> u, v;     ///< [m/s]
  Real surface_pressure;              ///< [Pa]
  Real perturbation_top;              ///< perturbations below this height [m]
  Real inversion_qt = 0;              ///< > 0: the z_i diagnostic's q_t threshold [kg/kg]
  /// Heights where the profiles jump (DYCOMS's inversion). A node at such a height on an
  /// element face takes the limit from inside its own element (from below for the
  /// element under the face, from above for the one over it), so a mesh with a face
  /// there holds the jump between elements, where DG can represent it, instead of
  /// inside one.
  std::vector<Real> jumps;
};

class MoistLes : public Case {
 public:
  /// The perturbation amplitudes' defaults are case.theta_perturbation (K) and
  /// case.qt_perturbation (kg/kg) when those keys are unset.
  MoistLes(const Config& c, MoistSounding sounding, Real theta_perturbation, Real qt_perturbation);

  bool moist() const override { return true; }
  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override;
  std::vector<std::string> time_series_columns() const override;
  std::vector<double> time_series(const HostSolution& s, MPI_Comm comm) const override;
  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override;

 private:
  struct CloudStatistics {
    double lwp, cover, base, top, max_ql, max_w, inversion;
  };
  CloudStatistics statistics(const HostSolution& s, MPI_Comm comm) const;
  double highest_crossing(const std::vector<double>& q_t, const std::vector<double>& z, int i, int j, int n1) const;

  MoistSounding sounding_;
  Real bottom_, height_;
  std::array<int, 3> elements_;
  Real theta_amplitude_, qt_amplitude_;
  std::uint64_t seed_ = 1;
};

}  // namespace squall::cases
