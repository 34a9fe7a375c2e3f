/// shear_wave: a decaying shear wave, u = U sin(2 pi z / L) exp(-nu k^2 t), k = 2 pi / L,
/// at uniform density (1 kg/m^3), temperature (300 K) and pressure in a triply periodic
/// box, no gravity. The momentum equation then reduces to the diffusion equation, so this
/// is its exact solution; the energy equation also carries the viscous heating
/// rho nu (du/dz)^2, which the exact state below leaves out (it is of order U^2 and
/// changes T by ~1e-4 K over the default run). For the viscous convergence test.
#include <cmath>

#include "cases/registry.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {
namespace {

struct ShearWave {
  Real z0, L, U, nu, t;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real, Real, Real z) const {
    const Real k = 2 * Real(M_PI) / L;
    const Real u = U * math::sin(k * (z - z0)) * math::exp(-nu * k * k * t);
    return {1.0, u, 0, 0, 300.0, 0, 0};
  }
};

}  // namespace

std::unique_ptr<Case> make_shear_wave(const Config& c) {
  const ShearWave wave{c.mesh.domain[2][0], c.mesh.domain[2][1] - c.mesh.domain[2][0], 1.0, c.physics.viscosity, 0};
  return std::make_unique<ExactSolutionCase<ShearWave>>("shear_wave", wave);
}

}  // namespace squall::cases
