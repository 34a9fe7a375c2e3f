#include "solver/case.hpp"

#include "solver/pointwise_fill.hpp"

namespace squall {
namespace {

struct NoTracer {
  KOKKOS_INLINE_FUNCTION Real operator()(int, Real, Real, Real) const { return 0; }
};

}  // namespace

void Case::initialize_tracers(const dg::CoordView& x, const dg::StateView& q, int first, int tracers) const {
  if (tracers > 0) fill_tracers("case::tracers", x, q, first, tracers, NoTracer{});
}

}  // namespace squall
