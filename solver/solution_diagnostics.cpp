#include "solver/solution_diagnostics.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/reproducible_sum.hpp"
#include "physics/state.hpp"

namespace squall {

NodeWeights node_weights(const std::vector<double>& lgl, const std::vector<double>& jacobian,
                         const std::vector<double>& node_jacobian) {
  const size_t n1 = lgl.size();
  NodeWeights nw;
  nw.w.resize(n1 * n1 * n1);
  nw.jacobian = jacobian;
  nw.node_jacobian = node_jacobian;
  for (size_t k = 0; k < n1; ++k)
    for (size_t j = 0; j < n1; ++j)
      for (size_t i = 0; i < n1; ++i) nw.w[i + n1 * (j + n1 * k)] = lgl[i] * lgl[j] * lgl[k];
  return nw;
}

std::vector<double> conserved_integrals(const HostSolution& s, const std::vector<int>& conserved,
                                        const NodeWeights& weights, MPI_Comm comm) {
  const std::size_t nc = conserved.size();
  std::vector<ExactSum> sums(nc);
  for (size_t e = 0; e < s.q.extent(0); ++e)
    for (size_t n = 0; n < s.q.extent(2); ++n)
      for (std::size_t c = 0; c < nc; ++c) sums[c].add(weights.at(e, n) * s.q(e, conserved[c], n));
  allreduce(comm, sums);
  std::vector<double> out(nc);
  for (std::size_t c = 0; c < nc; ++c) out[c] = sums[c].value();
  return out;
}

void error_norms(const HostView<Real***>& q, const HostView<Real***>& exact, const NodeWeights& weights,
                 double volume, MPI_Comm comm, std::vector<double>& l2, std::vector<double>& linf) {
  const int nv = static_cast<int>(q.extent(1));
  std::vector<ExactSum> sums(nv);
  std::vector<double> local_max(nv, 0.0);
  linf.assign(nv, 0.0);
  l2.assign(nv, 0.0);
  const bool against_zero = exact.data() == nullptr;
  for (size_t e = 0; e < q.extent(0); ++e)
    for (int v = 0; v < nv; ++v)
      for (size_t n = 0; n < q.extent(2); ++n) {
        const double d = against_zero ? q(e, v, n) : q(e, v, n) - exact(e, v, n);  // x - 0 is x
        sums[v].add(weights.at(e, n) * d * d);
        local_max[v] = std::max(local_max[v], std::fabs(d));
      }
  allreduce(comm, sums);
  MPI_Allreduce(local_max.data(), linf.data(), nv, MPI_DOUBLE, MPI_MAX, comm);
  for (int v = 0; v < nv; ++v) l2[v] = std::sqrt(sums[v].value() / volume);
}

std::string state_checksum(const HostSolution& s, MPI_Comm comm) {
  // FNV-1a over the element's bytes, seeded with its global id, then a final mix
  // (splitmix64) so that XOR-combining elements does not cancel structure.
  std::uint64_t local = 0;
  const size_t values = s.q.extent(1) * s.q.extent(2);
  for (size_t e = 0; e < s.q.extent(0); ++e) {
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(s.global_elements[e]);
    const auto* bytes = reinterpret_cast<const unsigned char*>(&s.q(e, 0, 0));
    for (size_t b = 0; b < values * sizeof(Real); ++b) h = (h ^ bytes[b]) * 1099511628211ull;
    h += 0x9e3779b97f4a7c15ull;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    local ^= h ^ (h >> 31);
  }
  std::uint64_t global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_UINT64_T, MPI_BXOR, comm);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(global));
  return hex;
}

}  // namespace squall
