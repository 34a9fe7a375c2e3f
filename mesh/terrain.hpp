#pragma once
/// Terrain-following mappings: the brick's flat elements (x, y, zeta) mapped to
/// (x, y, z) over a surface height h(x, y), with the displacement decaying to zero at a
/// flat top. Pure geometry, the same on every rank: a point's height is a function of its
/// flat coordinates alone, so two elements (or ranks) that share a face compute bitwise
/// the same points for it.
///
/// A run's [terrain] keys make one (solver/simulation_common.cpp, mesh_mapping); the
/// geometry (solver/geometry.hpp) moves the brick's nodes with it.
#include <string>
#include <vector>

namespace squall::mesh {

/// A built-in hill. x_c, y_c: its centre [m]; height h0 [m]; half_width a [m].
struct Hill {
  enum class Shape {
    flat,    ///< h = 0
    agnesi,  ///< h = h0 a^2 / ((x - x_c)^2 + a^2), uniform in y (Witch of Agnesi)
    schar,   ///< h = h0 exp(-((x - x_c)/a)^2) cos^2(pi (x - x_c)/lambda), uniform in y
    bell,    ///< h = h0 / (1 + r^2/a^2)^(3/2), r the distance from (x_c, y_c)
  };
  Shape shape = Shape::flat;
  double height = 0;      ///< h0 [m]
  double half_width = 1;  ///< a [m]
  double wavelength = 1;  ///< lambda [m] (Schär's mountain only)
  double x_c = 0, y_c = 0;
};

/// A user's terrain h(x, y) on a rectilinear grid: x (nx values) and y (ny values)
/// strictly increasing [m], h[j * nx + i] the height at (x_i, y_j) [m]. Between the grid
/// points h is bilinear; a point outside the grid is an error (the grid must cover the
/// domain). A grid one point wide along y (ny = 1) is a 2-D terrain h(x).
struct TerrainGrid {
  std::vector<double> x, y, h;
  std::string source;  ///< where it came from (a file and variable), for messages

  /// InputError unless the sizes agree, the coordinates are finite and strictly
  /// increasing and the heights finite.
  void validate() const;
  /// Bilinear h(x, y); InputError for a point outside the grid.
  double at(double px, double py) const;
  double max_abs() const;
};

/// How the terrain's displacement decays with height.
enum class Decay {
  /// Gal-Chen & Somerville (1975), J. Comput. Phys. 17, 209:
  /// z = zeta + h (1 - (zeta - z_0)/H), H = z_top - z_0.
  linear,
  /// Schär et al. (2002), Mon. Wea. Rev. 130, 2459, eq. (8) with one scale s (SLEVE):
  /// z = zeta + h sinh((H - (zeta - z_0))/s) / sinh(H/s); small-scale terrain decays
  /// within a few s, so the upper levels flatten faster than with the linear decay.
  smooth,
};

class TerrainMapping {
 public:
  /// `bottom`, `top`: the flat brick's z range [m]; `decay_scale`: s of the smooth decay
  /// [m]. Throws InputError for a hill that folds the mapping (h0 at least the depth H,
  /// or below -H), a non-positive width, wavelength or decay scale.
  TerrainMapping(Hill hill, Decay decay, double bottom, double top, double decay_scale = 0);
  /// The same over a user's terrain grid (validated here; the same folding checks with
  /// the grid's largest |h|).
  TerrainMapping(TerrainGrid grid, Decay decay, double bottom, double top, double decay_scale = 0);

  /// Surface height h(x, y) [m] (above the brick's bottom).
  double surface(double x, double y) const;
  /// The decay factor b(zeta) in z = zeta + h b: 1 at the bottom, exactly 0 at the top.
  double decay(double zeta) const;
  /// z of the flat brick's point (x, y, zeta) [m]: exactly bottom + h(x, y) at
  /// zeta = bottom and exactly top at zeta = top.
  double height(double x, double y, double zeta) const { return zeta + surface(x, y) * decay(zeta); }

  const Hill& hill() const { return hill_; }

 private:
  void check_folding(double largest, const std::string& what) const;

  Hill hill_;
  TerrainGrid grid_;
  bool use_grid_ = false;
  Decay decay_;
  double bottom_, top_, scale_;
};

/// The hill shape named by `name` ("flat", "agnesi", "schar", "bell"); InputError otherwise.
Hill::Shape hill_shape(const std::string& name);

}  // namespace squall::mesh
