#pragma once
/// The parametrised longwave radiation of the DYCOMS-II RF01 intercomparison (Stevens et
/// al. 2005, Mon. Wea. Rev. 133, 1443-1462, eq. 3; the numbers in
/// ../shared/cases/dycoms_rf01.md): the net upward flux at height z
///   F(z) = F_0 exp(-kappa LWP(z, top)) + F_1 exp(-kappa LWP(0, z))
///        + rho_i c_p D alpha_z [ (z - z_i)^(4/3) / 4 + z_i (z - z_i)^(1/3) ]   (z > z_i; else 0),
/// LWP(a, b) = int_a^b rho q_l dz, and the energy source -dF/dz. The first term cools
/// the cloud top, the second warms the cloud base, the third (a cooling of the free
/// troposphere, balancing its subsidence warming) acts above the inversion z_i.
///
/// In the operator (DgOperator::radiation_sources) the LWPs come from the column
/// operations (solver/column_operations.hpp), F is evaluated at every node, and the
/// source is minus the derivative along z of each element's polynomial of F. Its LGL
/// quadrature over a column is then F(bottom) - F(top) to round-off (the quadrature is
/// exact for the derivative, a polynomial of degree N - 1, and F is continuous across
/// elements), which is what the energy ledger books. exp and cbrt are the strict ones
/// (core/math.hpp), the same bits on every backend.
#include "core/math.hpp"
#include "core/types.hpp"

namespace squall::physics {

struct DycomsRadiation {
  Real flux_top = 70;            ///< F_0 [W m-2]
  Real flux_base = 22;           ///< F_1 [W m-2]
  Real absorption = 85;          ///< kappa [m2 kg-1]
  Real alpha_z = 1;              ///< [m^(-4/3)]
  Real inversion_density = 1.13; ///< rho_i [kg m-3]
  Real divergence = 3.75e-6;     ///< D [s-1]
  Real cp = 1004;                ///< c_p [J kg-1 K-1] of the third term (the dry air's)
  Real inversion_height = 840;   ///< z_i [m] when not diagnosed
  Real inversion_qt = 0;         ///< > 0: z_i per column, the highest node with q_t >= this

  /// F at height z above the bottom [W m-2], with the liquid water paths above and below
  /// the point [kg m-2] and the inversion height z_i [m].
  KOKKOS_INLINE_FUNCTION Real net_flux(Real z, Real lwp_above, Real lwp_below, Real z_i) const {
    Real f = flux_top * math::exp(-absorption * lwp_above) + flux_base * math::exp(-absorption * lwp_below);
    if (z > z_i) {
      const Real d = z - z_i, c = math::cbrt(d);
      f += inversion_density * cp * divergence * alpha_z * (d * c / 4 + z_i * c);
    }
    return f;
  }
};

}  // namespace squall::physics
