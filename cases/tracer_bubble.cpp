/// tracer_bubble: the rising bubble of cases/rising_bubble.hpp carrying passive tracers.
/// The first tracer marks the bubble, c = (1 + cos(pi r / r_c)) / 2 for r <= r_c (the
/// shape of theta'), 0 outside; any further tracer is the height above ground over the
/// domain height, c = (z - z_0) / H, which the flow overturns. Nothing acts on a tracer
/// but the flow (and, with viscosity or a closure, diffusion), so the mass of each is
/// conserved to round-off, its mixing ratio stays within [0, 1] up to the overshoot of
/// the DG polynomials, and the bubble tracer's centre of mass rises with the bubble.
/// With case.emission = E > 0 the first tracer is also emitted where the bubble started,
/// S = E rho b(x) (b the bubble's initial shape): a source of the case's own, which the
/// ledger integrates, so the tracer's mass grows by exactly what was emitted.
/// Diagnostics, per tracer <name>: the nodal minimum and maximum of its mixing ratio,
/// and the height of its centre of mass above ground, int rho c z / int rho c.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cases/rising_bubble.hpp"
#include "core/error.hpp"
#include "core/reproducible_sum.hpp"

namespace squall::cases {
namespace {

struct BubbleTracers {
  Real x_c, z_c, r_c, z_ground, height;
  Real y_c;
  bool sphere;
  KOKKOS_INLINE_FUNCTION Real operator()(int k, Real x, Real y, Real z) const {
    if (k > 0) return (z - z_ground) / height;
    const Real dy = sphere ? y - y_c : Real(0);
    const Real r = math::sqrt((x - x_c) * (x - x_c) + dy * dy + (z - z_c) * (z - z_c));
    return r <= r_c ? Real(0.5) * (1 + math::cos(Real(M_PI) * r / r_c)) : Real(0);
  }
};

/// The emission of the first tracer, S = E rho b(x) at the bubble's initial place.
struct Emission {
  BubbleTracers shape;
  Real rate;  ///< E [1/s]
  KOKKOS_INLINE_FUNCTION void operator()(Real, const Real* x, const dg::StateView& q, int e, int n, Real* s) const {
    s[dg::Equations::i_tracer] = rate * q(e, dg::Equations::i_rho, n) * shape(0, x[0], x[1], x[2]);
  }
};

class TracerBubble : public RisingBubble {
 public:
  explicit TracerBubble(const Config& c)
      : RisingBubble(c),
        names_(c.physics.tracers),
        tracers_{bubble_.x_c, bubble_.z_c, bubble_.r_c, bubble_.z_ground, c.mesh.domain[2][1] - c.mesh.domain[2][0],
                 bubble_.y_c, bubble_.sphere},
        emission_(c.case_.numbers.count("emission") ? c.case_.numbers.at("emission") : 0.0) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", emission_);
    if (!(emission_ >= 0))
      throw InputError(c.source + ": 'case.emission' = " + value + ": expected a finite number >= 0 (1/s)");
    if (emission_ > 0 && names_.empty())
      throw InputError(c.source + ": case.emission = " + value +
                       " emits the first tracer, and physics.tracers is empty: name at least one");
  }

  bool has_sources() const override { return emission_ > 0; }
  void add_sources(const SourceArgs& a) const override {
    add_case_source("case::tracer_bubble_emission", a, Emission{tracers_, emission_});
  }

  void initialize_tracers(const dg::CoordView& x, const dg::StateView& q, int first, int tracers) const override {
    fill_tracers("case::tracer_bubble", x, q, first, tracers, tracers_);
  }

  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override {
    std::vector<CaseDiagnostic> out = RisingBubble::diagnostics(s, comm);
    const int tracers = static_cast<int>(s.q.extent(1)) - dg::Equations::nvar;
    const int n1 = static_cast<int>(s.lgl_weights.size());
    for (int k = 0; k < tracers; ++k) {
      const int v = dg::Equations::i_tracer + k;
      double low = 1e300, high = -1e300;
      std::vector<ExactSum> sums(2);  // int rho c, int rho c (z - z_0)
      for (size_t e = 0; e < s.q.extent(0); ++e)
        for (size_t n = 0; n < s.q.extent(2); ++n) {
          const double c = s.q(e, v, n) / s.q(e, dg::Equations::i_rho, n);
          low = std::min(low, c), high = std::max(high, c);
          const int i = static_cast<int>(n) % n1, j = (static_cast<int>(n) / n1) % n1, l = static_cast<int>(n) / (n1 * n1);
          const double w = s.lgl_weights[i] * s.lgl_weights[j] * s.lgl_weights[l] * s.jacobian(e);
          sums[0].add(w * s.q(e, v, n));
          sums[1].add(w * s.q(e, v, n) * (s.x(e, 2, n) - bubble_.z_ground));
        }
      double local[2] = {-low, high}, global[2];
      MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm);
      allreduce(comm, sums);
      const std::string name = k < static_cast<int>(names_.size()) ? names_[k] : "tracer" + std::to_string(k);
      out.push_back({"min_" + name, -global[0]});
      out.push_back({"max_" + name, global[1]});
      out.push_back({"centre_height_" + name, sums[0].value() != 0 ? sums[1].value() / sums[0].value() : 0.0});
    }
    return out;
  }

 private:
  std::vector<std::string> names_;
  BubbleTracers tracers_;
  Real emission_;
};

}  // namespace

std::unique_ptr<Case> make_tracer_bubble(const Config& c) { return std::make_unique<TracerBubble>(c); }

}  // namespace squall::cases
