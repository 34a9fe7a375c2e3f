#pragma once
/// Labelled launch helpers: every kernel in Squall goes through one of these, so every
/// launch has a name in profilers (Kokkos Tools) and one place decides the policy.
#include <cstddef>
#include <string>

#include "core/types.hpp"

namespace squall {

/// for i in [0, n): body(i)
template <class Body>
void parallel_for(const std::string& label, int n, const Body& body) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, n), body);
}

/// for (i, j) in [0, n0) x [0, n1): body(i, j); the last index varies fastest.
/// On host backends each thread takes whole rows i and runs j in an inner loop (unit
/// stride, vectorisable, no index arithmetic); on devices one flat range, so that
/// consecutive threads take consecutive j, the contiguous index of Squall's arrays
/// (coalesced loads).
template <class Body>
void parallel_for(const std::string& label, int n0, int n1, const Body& body) {
  if constexpr (host_backend) {
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, n0), KOKKOS_LAMBDA(const int i) {
      for (int j = 0; j < n1; ++j) body(i, j);
    });
  } else {
    const long total = static_cast<long>(n0) * n1;
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, total),
                         KOKKOS_LAMBDA(const long k) { body(static_cast<int>(k / n1), static_cast<int>(k % n1)); });
  }
}

/// for every node (i, j, k) of every element e in [0, elements), n1 nodes per direction:
/// body(e, i, j, k). On host backends each thread takes whole elements and runs k, j, i
/// in loops with compile-time trip counts, i innermost: the node indices come from the
/// loops instead of divisions, and loops over neighbours along a direction unroll and
/// vectorise. On devices one flat range over (element, node), node i + n1 (j + n1 k)
/// fastest, as in parallel_for(label, elements, nodes, body).
template <int n1, class Body>
void parallel_for_nodes(const std::string& label, int elements, const Body& body) {
  if constexpr (host_backend) {
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, elements), KOKKOS_LAMBDA(const int e) {
      for (int k = 0; k < n1; ++k)
        for (int j = 0; j < n1; ++j)
          for (int i = 0; i < n1; ++i) body(e, i, j, k);
    });
  } else {
    constexpr long nodes = static_cast<long>(n1) * n1 * n1;
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, elements * nodes),
                         KOKKOS_LAMBDA(const long t) {
                           const int n = static_cast<int>(t % nodes);
                           body(static_cast<int>(t / nodes), n % n1, (n / n1) % n1, n / (n1 * n1));
                         });
  }
}

/// Maximum of body(i) over i in [0, n) (the lowest Real when n = 0). A maximum is
/// exact, so it does not depend on the order of evaluation and is reproducible.
template <class Body>
Real parallel_max(const std::string& label, int n, const Body& body) {
  Real result = 0;
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, Real& m) {
        const Real v = body(i);
        if (v > m) m = v;
      },
      Kokkos::Max<Real>(result));
  return result;
}

/// A thread of a team (parallel_max_teams).
using TeamMember = Kokkos::TeamPolicy<ExecSpace>::member_type;

/// Maximum over a league of n teams (one per item, e.g. an element) of what body(team,
/// m) leaves in m, each team with `scratch_bytes` of level-0 scratch memory (shared
/// memory on GPUs; a host backend runs teams of one thread). The team size is the
/// backend's choice (Kokkos::AUTO). A maximum is exact, hence reproducible.
template <class Body>
Real parallel_max_teams(const std::string& label, int n, std::size_t scratch_bytes, const Body& body) {
  Real result = 0;
  Kokkos::parallel_reduce(
      label, Kokkos::TeamPolicy<ExecSpace>(n, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(scratch_bytes)), body,
      Kokkos::Max<Real>(result));
  return result;
}

/// out(g) = the maximum of body(g, i) over i in [0, n) for each group g of out (the
/// members of a batch, say; the lowest Real where n = 0). Exact, hence reproducible. On a
/// device one launch serves every group, a team each; a host backend takes the groups one
/// after another, each over all its threads (launches cost little there, and a team of
/// one thread per group would leave threads idle). `teams` picks the way (the tests run
/// the device's on a host backend too).
template <class Body>
void parallel_max_groups(const std::string& label, int n, const DeviceView<Real*>& out, const Body& body,
                         bool teams = !host_backend) {
  const int groups = static_cast<int>(out.extent(0));
  if (!teams) {
    const auto h = Kokkos::create_mirror_view(out);  // the same memory on a host backend
    for (int g = 0; g < groups; ++g) h(g) = parallel_max(label, n, KOKKOS_LAMBDA(const int i) { return body(g, i); });
    Kokkos::deep_copy(out, h);
  } else {
    Kokkos::parallel_for(
        label, Kokkos::TeamPolicy<ExecSpace>(groups, Kokkos::AUTO), KOKKOS_LAMBDA(const TeamMember& team) {
          const int g = team.league_rank();
          Real m = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, n),
              [&](const int i, Real& v) {
                const Real x = body(g, i);
                if (x > v) v = x;
              },
              Kokkos::Max<Real>(m));
          Kokkos::single(Kokkos::PerTeam(team), [&]() { out(g) = m; });
        });
  }
}

/// Minimum of body(i) over i in [0, n): minus the maximum of -body (negation is exact).
template <class Body>
Real parallel_min(const std::string& label, int n, const Body& body) {
  return -parallel_max(label, n, KOKKOS_LAMBDA(const int i) { return -body(i); });
}

/// Maximum of body(i, j) over [0, n0) x [0, n1); exact, hence reproducible.
template <class Body>
Real parallel_max(const std::string& label, int n0, int n1, const Body& body) {
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
  Real result = 0;
  Kokkos::parallel_reduce(
      label, Policy({0, 0}, {n0, n1}),
      KOKKOS_LAMBDA(const int i, const int j, Real& m) {
        const Real v = body(i, j);
        if (v > m) m = v;
      },
      Kokkos::Max<Real>(result));
  return result;
}

/// Maximum of body(e, i, j, k) over the nodes of all elements, looped as in
/// parallel_for_nodes; exact, hence reproducible.
template <int n1, class Body>
Real parallel_max_nodes(const std::string& label, int elements, const Body& body) {
  Real result = 0;
  if constexpr (host_backend) {
    Kokkos::parallel_reduce(
        label, Kokkos::RangePolicy<ExecSpace>(0, elements),
        KOKKOS_LAMBDA(const int e, Real& m) {
          for (int k = 0; k < n1; ++k)
            for (int j = 0; j < n1; ++j)
              for (int i = 0; i < n1; ++i) {
                const Real v = body(e, i, j, k);
                if (v > m) m = v;
              }
        },
        Kokkos::Max<Real>(result));
  } else {
    constexpr long nodes = static_cast<long>(n1) * n1 * n1;
    Kokkos::parallel_reduce(
        label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, elements * nodes),
        KOKKOS_LAMBDA(const long t, Real& m) {
          const int n = static_cast<int>(t % nodes);
          const Real v = body(static_cast<int>(t / nodes), n % n1, (n / n1) % n1, n / (n1 * n1));
          if (v > m) m = v;
        },
        Kokkos::Max<Real>(result));
  }
  return result;
}

/// Sum of body(i, j) over [0, n0) x [0, n1). The order of the additions is the
/// backend's: reproducible run to run on one backend and thread count, not across them,
/// so use it for diagnostics, never for the state.
template <class Body>
double parallel_sum(const std::string& label, int n0, int n1, const Body& body) {
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
  double result = 0;
  Kokkos::parallel_reduce(
      label, Policy({0, 0}, {n0, n1}),
      KOKKOS_LAMBDA(const int i, const int j, double& s) { s += body(i, j); }, result);
  return result;
}

/// Smallest i * n1 + j over [0, n0) x [0, n1) for which body(i, j) is true, or -1.
template <class Body>
long parallel_first(const std::string& label, int n0, int n1, const Body& body) {
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
  long result = 0;
  const long none = static_cast<long>(n0) * n1;
  Kokkos::parallel_reduce(
      label, Policy({0, 0}, {n0, n1}),
      KOKKOS_LAMBDA(const int i, const int j, long& m) {
        const long index = static_cast<long>(i) * n1 + j;
        if (index < m && body(i, j)) m = index;
      },
      Kokkos::Min<long>(result));
  return result >= none ? -1 : result;
}

}  // namespace squall
