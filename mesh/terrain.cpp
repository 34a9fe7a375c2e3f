#include "mesh/terrain.hpp"

#include <string>

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
  const double depth = top - bottom;
  if (!(depth > 0)) throw InputError("terrain: the domain's top must lie above its bottom");
  if (hill.shape != Hill::Shape::flat) {
    if (!(hill.half_width > 0))
      throw InputError("terrain: half_width must be > 0 m, got " + std::to_string(hill.half_width));
    if (hill.shape == Hill::Shape::schar && !(hill.wavelength > 0))
      throw InputError("terrain: wavelength must be > 0 m, got " + std::to_string(hill.wavelength));
    // |h| < H keeps dz/dzeta = 1 - h/H (linear) positive everywhere: no folded elements.
    if (!(math::abs(hill.height) < depth))
      throw InputError("terrain: the hill's height (" + std::to_string(hill.height) +
                       " m) must be smaller than the domain's depth (" + std::to_string(depth) + " m)");
  }
  if (decay == Decay::smooth) {
    if (!(decay_scale > 0))
      throw InputError("terrain: the smooth decay needs a decay scale > 0 m, got " + std::to_string(decay_scale));
    // dz/dzeta = 1 - h cosh((H - zeta)/s) / (s sinh(H/s)) is smallest at the bottom.
    const double limit = decay_scale * hyperbolic_tangent(depth / decay_scale);
    if (!(math::abs(hill.height) < limit))
      throw InputError("terrain: the hill's height (" + std::to_string(hill.height) +
                       " m) must be smaller than s tanh(H/s) = " + std::to_string(limit) +
                       " m with the smooth decay, or the mapping folds; raise the decay scale");
  }
}

double TerrainMapping::surface(double x, double y) const {
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
