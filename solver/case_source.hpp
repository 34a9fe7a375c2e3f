#pragma once
/// Sources a case adds on top of the operator's own (Case::add_sources), and what they
/// add to the conservation ledger. The operator calls the case once per right-hand side
/// with a SourceArgs; the case launches add_case_source with a pointwise device functor
///   void f(Real t, const Real x[3], const dg::StateView& q, int e, int n, Real* s) const
/// that sets s[v] (zero on entry) for the state variables v < q.extent(1) it acts on.
/// add_case_source adds s to dq and integrates, element by element in a fixed order and
/// over elements and ranks with the exact sum, the rate at which s changes each
/// conserved quantity, so the ledger closes to round-off with sources too.
#include <mpi.h>

#include <string>
#include <vector>

#include "core/launch.hpp"
#include "core/reproducible_sum.hpp"
#include "solver/dg_layout.hpp"

namespace squall {

/// The most state variables of any equation set of this build (dry air and its tracers,
/// moist air, one more, and its tracers), for local arrays.
inline constexpr int max_state_variables = dg::Equations::nvar + (SQUALL_MAX_TRACERS > 1 + SQUALL_MAX_MOIST_TRACERS
                                                                      ? SQUALL_MAX_TRACERS
                                                                      : 1 + SQUALL_MAX_MOIST_TRACERS);

struct SourceArgs {
  Real t;
  dg::StateView q, dq;
  dg::AuxView aux;
  dg::CoordView x;
  DeviceView<Real**> weights;       ///< quadrature weight times Jacobian of each volume node (element, node)
  DeviceView<int*> conserved;       ///< state indices of the ledger's quantities
  DeviceView<Real**> element_rates;  ///< work array (element, conserved quantity)
  MPI_Comm comm;
  double* rates;  ///< per conserved quantity: add the rate [unit / s] the source adds to its integral
  int members = 1;  ///< a batch of this many members, member-major: rates[m * nc + c] is member m's

  /// Member m's part of a batch's arguments: its elements, and its rates.
  SourceArgs member(int m) const {
    const int n = static_cast<int>(q.extent(0)) / members;
    const auto range = std::make_pair(m * n, (m + 1) * n);
    const auto all = Kokkos::ALL;
    SourceArgs a = *this;
    a.q = Kokkos::subview(q, range, all, all);
    a.dq = Kokkos::subview(dq, range, all, all);
    a.aux = Kokkos::subview(aux, range, all, all);
    a.x = Kokkos::subview(x, range, all, all);
    if (weights.extent(0) > 0) a.weights = Kokkos::subview(weights, range, all);
    if (element_rates.extent(0) > 0) a.element_rates = Kokkos::subview(element_rates, range, all);
    a.rates = rates + static_cast<size_t>(m) * conserved.extent(0);
    a.members = 1;
    return a;
  }
};

/// rates[m * nc + c] += the exact sum over member m's elements (the m-th of `members`
/// equal blocks) of every rank of element_rates(e, c), in element order (the same bits on
/// any rank count, and in a batch the member's own).
inline void add_element_rates(const DeviceView<Real**>& element_rates, MPI_Comm comm, double* rates,
                              int members = 1) {
  const int elements = static_cast<int>(element_rates.extent(0)), nc = static_cast<int>(element_rates.extent(1));
  const int per_member = elements / members;
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), element_rates);
  std::vector<ExactSum> sums(static_cast<size_t>(members) * nc);
  for (int e = 0; e < elements; ++e)
    for (int c = 0; c < nc; ++c) sums[static_cast<size_t>(e / per_member) * nc + c].add(host(e, c));
  allreduce(comm, sums);
  for (size_t i = 0; i < sums.size(); ++i) rates[i] += sums[i].value();
}

template <class F>
void add_case_source(const std::string& label, const SourceArgs& a, const F& f) {
  const int elements = static_cast<int>(a.q.extent(0)), nodes = static_cast<int>(a.q.extent(2));
  const int nvar = static_cast<int>(a.q.extent(1)), nc = static_cast<int>(a.conserved.extent(0));
  const auto q = a.q, dq = a.dq;
  const auto x = a.x;
  const auto w = a.weights;
  const auto conserved = a.conserved;
  const auto rates = a.element_rates;
  const Real t = a.t;
  parallel_for(label, elements, KOKKOS_LAMBDA(const int e) {
    // The element's rates in registers, and the ledger's indices read once (the stores
    // into dq could alias them, so the compiler would reload and store them per node).
    int index[max_state_variables];
    Real sum[max_state_variables];
    for (int c = 0; c < nc; ++c) index[c] = conserved(c), sum[c] = 0;
    for (int n = 0; n < nodes; ++n) {
      Real s[max_state_variables] = {};
      const Real position[3] = {x(e, 0, n), x(e, 1, n), x(e, 2, n)};
      f(t, position, q, e, n, s);
      for (int v = 0; v < nvar; ++v) dq(e, v, n) += s[v];
      const Real weight = w(e, n);
      for (int c = 0; c < nc; ++c) sum[c] += weight * s[index[c]];
    }
    for (int c = 0; c < nc; ++c) rates(e, c) = sum[c];
  });
  add_element_rates(rates, a.comm, a.rates, a.members);
}

}  // namespace squall
