#pragma once
// Pointwise states the operator tests fill meshes with (solver/pointwise_fill.hpp).
#include "physics/constants.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::test {

/// A uniform flow, no gravity.
struct UniformFlow {
  KOKKOS_INLINE_FUNCTION PointState operator()(Real, Real, Real) const {
    return {1.2, 10.0, 5.0, -3.0, 300.0, 0.0, 0.0};
  }
};

/// A smooth, non-trivial state, hydrostatic in the mean, for a box with walls at z = 0
/// and 1000 m.
struct Wavy {
  physics::GasParameters gas{};
  Real g = physics::grav;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real x, Real y, Real z) const {
    const Real s = math::sin(Real(0.006) * x + Real(0.004) * y) * math::cos(Real(0.003) * z);
    const Real p = 1e5 * math::exp(-g * z / (gas.R_d * 300));
    return {p / (gas.R_d * 300) * (1 + Real(0.01) * s), 5 * s, -3 * s, 2 * s, 300 + 2 * s, 1.0, p};
  }
};

}  // namespace squall::test
