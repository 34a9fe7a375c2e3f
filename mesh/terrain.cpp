#include "mesh/terrain.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/math.hpp"

namespace squall::mesh {

namespace {
constexpr double pi = 3.14159265358979323846;
// sinh and tanh from math::exp, which gives the same bits on every backend (core/math.hpp).
double hyperbolic_sine(double x) { return (math::exp(x) - math::exp(-x)) / 2; }
double hyperbolic_tangent(double x) {
  const double e = math::exp(2 * x);
  return (e - 1) / (e + 1);
}
}  // namespace

TerrainMapping::TerrainMapping(Hill hill, Decay decay, double bottom, double top, double decay_scale)
    : hill_(hill), decay_(decay), bottom_(bottom), top_(top), scale_(decay_scale) {
  if (hill.shape != Hill::Shape::flat) {
    if (!(hill.half_width > 0))
      throw InputError("terrain: half_width must be > 0 m, got " + std::to_string(hill.half_width));
    if (hill.shape == Hill::Shape::schar && !(hill.wavelength > 0))
      throw InputError("terrain: wavelength must be > 0 m, got " + std::to_string(hill.wavelength));
  }
  check_folding(hill.shape == Hill::Shape::flat ? 0.0 : math::abs(hill.height), "the hill's height");
}

TerrainMapping::TerrainMapping(TerrainGrid grid, Decay decay, double bottom, double top, double decay_scale)
    : grid_(std::move(grid)), use_grid_(true), decay_(decay), bottom_(bottom), top_(top), scale_(decay_scale) {
  grid_.validate();
  check_folding(grid_.max_abs(), "the largest |h| of " + grid_.source);
}

void TerrainMapping::check_folding(double largest, const std::string& what) const {
  const double depth = top_ - bottom_;
  if (!(depth > 0)) throw InputError("terrain: the domain's top must lie above its bottom");
  // |h| < H keeps dz/dzeta = 1 - h/H (linear) positive everywhere: no folded elements.
  if (!(largest < depth))
    throw InputError("terrain: " + what + " (" + std::to_string(largest) +
                     " m) must be smaller than the domain's depth (" + std::to_string(depth) + " m)");
  if (decay_ == Decay::smooth) {
    if (!(scale_ > 0))
      throw InputError("terrain: the smooth decay needs a decay scale > 0 m, got " + std::to_string(scale_));
    // sinh(H/s) from exp overflows past H/s = 709; a hill that decays within H/300 is flat anyway.
    if (!(depth / scale_ <= 300))
      throw InputError("terrain: the smooth decay's scale (" + std::to_string(scale_) +
                       " m) must be at least 1/300 of the domain's depth (" + std::to_string(depth) + " m)");
    // dz/dzeta = 1 - h cosh((H - zeta)/s) / (s sinh(H/s)) is smallest at the bottom.
    const double limit = scale_ * hyperbolic_tangent(depth / scale_);
    if (!(largest < limit))
      throw InputError("terrain: " + what + " (" + std::to_string(largest) + " m) must be smaller than s tanh(H/s) = " +
                       std::to_string(limit) + " m with the smooth decay, or the mapping folds; raise the decay scale");
  }
}

void TerrainGrid::validate() const {
  const std::string where = "terrain " + (source.empty() ? std::string("grid") : source);
  if (x.size() < 2 || y.empty())
    throw InputError(where + ": needs at least 2 points along x and 1 along y, got " + std::to_string(x.size()) +
                     " x " + std::to_string(y.size()));
  if (h.size() != x.size() * y.size())
    throw InputError(where + ": " + std::to_string(h.size()) + " heights for a " + std::to_string(x.size()) + " x " +
                     std::to_string(y.size()) + " grid");
  auto increasing = [&](const std::vector<double>& c, const char* name) {
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (!math::isfinite(c[i]) || (i > 0 && !(c[i] > c[i - 1])))
        throw InputError(where + ": the coordinate " + name + " must be finite and strictly increasing (value " +
                         std::to_string(i) + " is " + std::to_string(c[i]) + ")");
    }
  };
  increasing(x, "x");
  increasing(y, "y");
  for (std::size_t k = 0; k < h.size(); ++k)
    if (!math::isfinite(h[k]))
      throw InputError(where + ": height " + std::to_string(k) + " (x index " + std::to_string(k % x.size()) +
                       ", y index " + std::to_string(k / x.size()) + ") is not finite");
}

namespace {
/// The cell [c_i, c_{i+1}] holding p and p's fraction t in it; n = 1: the one point.
void locate(const std::vector<double>& c, double p, std::size_t& i, double& t) {
  if (c.size() == 1) {
    i = 0;
    t = 0;
    return;
  }
  const auto up = std::upper_bound(c.begin(), c.end(), p);
  i = up == c.begin() ? 0 : std::min<std::size_t>(static_cast<std::size_t>(up - c.begin()) - 1, c.size() - 2);
  t = (p - c[i]) / (c[i + 1] - c[i]);
}
}  // namespace

double TerrainGrid::at(double px, double py) const {
  const bool outside_y = y.size() > 1 && (py < y.front() || py > y.back());
  if (px < x.front() || px > x.back() || outside_y)
    throw InputError("terrain " + source + ": the point (" + std::to_string(px) + ", " + std::to_string(py) +
                     ") m lies outside the terrain grid (x from " + std::to_string(x.front()) + " to " +
                     std::to_string(x.back()) + (y.size() > 1 ? ", y from " + std::to_string(y.front()) + " to " +
                                                                     std::to_string(y.back())
                                                               : std::string()) +
                     " m); the grid must cover the domain");
  std::size_t i, j;
  double s, t;
  locate(x, px, i, s);
  locate(y, py, j, t);
  const std::size_t nx = x.size();
  const double h00 = h[j * nx + i], h10 = h[j * nx + i + 1];
  const double low = h00 + s * (h10 - h00);
  if (y.size() == 1) return low;
  const double h01 = h[(j + 1) * nx + i], h11 = h[(j + 1) * nx + i + 1];
  const double high = h01 + s * (h11 - h01);
  return low + t * (high - low);
}

double TerrainGrid::max_abs() const {
  double m = 0;
  for (const double v : h) m = math::max(m, math::abs(v));
  return m;
}

double TerrainMapping::surface(double x, double y) const {
  if (use_grid_) return grid_.at(x, y);
  const Hill& h = hill_;
  const double dx = x - h.x_c;
  switch (h.shape) {
    case Hill::Shape::flat:
      return 0;
    case Hill::Shape::agnesi:
      return h.height * h.half_width * h.half_width / (dx * dx + h.half_width * h.half_width);
    case Hill::Shape::schar: {
      const double c = math::cos(pi * dx / h.wavelength);
      return h.height * math::exp(-(dx / h.half_width) * (dx / h.half_width)) * c * c;
    }
    case Hill::Shape::bell: {
      const double dy = y - h.y_c;
      const double s = 1 + (dx * dx + dy * dy) / (h.half_width * h.half_width);
      return h.height / (s * math::sqrt(s));
    }
  }
  return 0;
}

double TerrainMapping::decay(double zeta) const {
  const double depth = top_ - bottom_, above = zeta - bottom_;
  if (decay_ == Decay::linear) return (depth - above) / depth;
  return hyperbolic_sine((depth - above) / scale_) / hyperbolic_sine(depth / scale_);
}

Hill::Shape hill_shape(const std::string& name) {
  if (name == "flat") return Hill::Shape::flat;
  if (name == "agnesi") return Hill::Shape::agnesi;
  if (name == "schar") return Hill::Shape::schar;
  if (name == "bell") return Hill::Shape::bell;
  throw InputError("terrain: unknown hill '" + name + "' (expected flat, agnesi, schar or bell)");
}

}  // namespace squall::mesh
