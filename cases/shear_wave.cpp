/// shear_wave: a decaying shear wave, u = U sin(k (z - z0)) exp(-nu k^2 t), at uniform
/// density (1 kg/m^3), temperature (300 K) and pressure, no gravity. With z periodic,
/// k = 2 pi / L (one wavelength over the height L); with walls in z, k = pi / L: half a
/// wavelength, so u vanishes at both walls, which must then be no-slip (channel flow
/// decaying between still plates). The momentum equation then reduces to the diffusion equation, so this
/// is its exact solution; the energy equation also carries the viscous heating
/// rho nu (du/dz)^2, which the exact state below leaves out (it is of order U^2 and
/// changes T by ~1e-4 K over the default run). For the viscous convergence test.
#include <cmath>

#include "cases/registry.hpp"
#include "core/error.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {
namespace {

struct ShearWave {
  Real z0, k, U, nu, t;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real, Real, Real z) const {
    const Real u = U * math::sin(k * (z - z0)) * math::exp(-nu * k * k * t);
    return {1.0, u, 0, 0, 300.0, 0, 0};
  }
};

}  // namespace

std::unique_ptr<Case> make_shear_wave(const Config& c) {
  const bool walled = !c.mesh.periodic[2];
  for (int w : {4, 5})
    if (walled && c.boundary.kind[w] == "free_slip")
      throw InputError(c.source + ": case shear_wave with walls in z (mesh.periodic[2] = false) needs no-slip walls: "
                       "set boundary." + std::string(wall_names[w]) + " to \"no_slip_adiabatic\" or \"no_slip_isothermal\"");
  const Real L = c.mesh.domain[2][1] - c.mesh.domain[2][0];
  const ShearWave wave{c.mesh.domain[2][0], (walled ? 1 : 2) * Real(M_PI) / L, 1.0, c.physics.viscosity, 0};
  return std::make_unique<ExactSolutionCase<ShearWave>>("shear_wave", wave);
}

}  // namespace squall::cases
