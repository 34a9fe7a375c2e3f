// A user's terrain from a NetCDF file (io/terrain_file.hpp) and its bilinear
// interpolation (mesh::TerrainGrid): bilinear data are reproduced, 2-D terrain h(x) is
// read from a one-dimensional variable, and every kind of bad file is refused with the
// file and the variable named.
#include <catch2/catch.hpp>
#include <netcdf.h>
#include <unistd.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/terrain_file.hpp"

using namespace squall;

namespace {

struct Axis {
  std::string name, units;
  std::vector<double> values;
};

/// Writes `variable` (dimensions: the axes, slowest first) with `values` to a new file.
std::string write_file(const std::string& name, const std::vector<Axis>& axes, const std::string& variable,
                       const std::vector<double>& values, const std::string& units = "m", const double* fill = nullptr) {
  const std::string path = "terrain_test_" + std::to_string(getpid()) + "_" + name + ".nc";
  int id = -1;
  REQUIRE(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &id) == NC_NOERR);
  std::vector<int> dims(axes.size()), coords(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    REQUIRE(nc_def_dim(id, axes[a].name.c_str(), axes[a].values.size(), &dims[a]) == NC_NOERR);
    REQUIRE(nc_def_var(id, axes[a].name.c_str(), NC_DOUBLE, 1, &dims[a], &coords[a]) == NC_NOERR);
    if (!axes[a].units.empty())
      nc_put_att_text(id, coords[a], "units", axes[a].units.size(), axes[a].units.c_str());
  }
  int var = -1;
  REQUIRE(nc_def_var(id, variable.c_str(), NC_DOUBLE, static_cast<int>(dims.size()), dims.data(), &var) == NC_NOERR);
  nc_put_att_text(id, var, "units", units.size(), units.c_str());
  if (fill) nc_put_att_double(id, var, "_FillValue", NC_DOUBLE, 1, fill);
  REQUIRE(nc_enddef(id) == NC_NOERR);
  for (std::size_t a = 0; a < axes.size(); ++a) REQUIRE(nc_put_var_double(id, coords[a], axes[a].values.data()) == NC_NOERR);
  REQUIRE(nc_put_var_double(id, var, values.data()) == NC_NOERR);
  REQUIRE(nc_close(id) == NC_NOERR);
  return path;
}

double bilinear(double x, double y) { return 120 + 0.01 * x - 0.02 * y + 3e-6 * x * y; }

/// The message of the InputError `f` throws (empty if none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("A terrain file's bilinear data are reproduced between its points", "[terrain]") {
  const std::vector<double> x = {-3000, -1000, 0, 500, 4000}, y = {-2000, 0, 2500};
  std::vector<double> h;
  for (double py : y)
    for (double px : x) h.push_back(bilinear(px, py));
  const std::string path = write_file("bilinear", {{"y", "m", y}, {"x", "metres", x}}, "topography", h);
  const mesh::TerrainGrid grid = io::read_terrain(path, "topography");
  unlink(path.c_str());
  REQUIRE(grid.x == x);
  REQUIRE(grid.y == y);
  for (double px : {-3000.0, -2999.0, -1234.5, 0.0, 250.0, 3999.9, 4000.0})
    for (double py : {-2000.0, -17.0, 0.0, 1300.0, 2500.0}) CHECK(grid.at(px, py) == Approx(bilinear(px, py)).epsilon(1e-13));
  CHECK(grid.at(500.0, 0.0) == h[1 * 5 + 3]);  // exactly the value at a grid point
  const mesh::TerrainMapping t(grid, mesh::Decay::linear, 0.0, 10000.0);
  CHECK(t.height(250.0, 1300.0, 0.0) == grid.at(250.0, 1300.0));
  CHECK(t.height(250.0, 1300.0, 10000.0) == 10000.0);
}

TEST_CASE("A terrain file with one dimension is a 2-D terrain h(x)", "[terrain]") {
  const std::vector<double> x = {0, 1000, 2000};
  const std::string path = write_file("ridge", {{"x", "", x}}, "h", {0, 300, 0});
  const mesh::TerrainGrid grid = io::read_terrain(path, "h");
  unlink(path.c_str());
  CHECK(grid.at(500.0, -7.0e5) == 150.0);
  CHECK(grid.at(1000.0, 3.0) == 300.0);
}

TEST_CASE("Bad terrain files are refused with the file and variable named", "[terrain]") {
  const std::vector<double> x = {0, 1000, 2000}, y = {0, 1000};
  const std::vector<double> h(6, 10.0);
  const std::string good = write_file("good", {{"y", "m", y}, {"x", "m", x}}, "h", h);
  CHECK(error_of([&] { io::read_terrain(good, "height"); }).find("variable 'height': no such variable") != std::string::npos);
  CHECK(error_of([&] { io::read_terrain("no_such_terrain.nc", "h"); }).find("'no_such_terrain.nc': cannot open") !=
        std::string::npos);
  const mesh::TerrainGrid grid = io::read_terrain(good, "h");
  CHECK(error_of([&] { grid.at(2500.0, 10.0); }).find("outside the terrain grid") != std::string::npos);
  unlink(good.c_str());

  const std::string degrees = write_file("degrees", {{"y", "degrees_north", y}, {"x", "m", x}}, "h", h);
  CHECK(error_of([&] { io::read_terrain(degrees, "h"); }).find("'y' is in 'degrees_north'; expected metres") !=
        std::string::npos);
  unlink(degrees.c_str());

  const std::string feet = write_file("feet", {{"y", "m", y}, {"x", "m", x}}, "h", h, "ft");
  CHECK(error_of([&] { io::read_terrain(feet, "h"); }).find("the heights are in 'ft'") != std::string::npos);
  unlink(feet.c_str());

  const double fill = -9999;
  std::vector<double> gap = h;
  gap[4] = fill;
  const std::string holes = write_file("holes", {{"y", "m", y}, {"x", "m", x}}, "h", gap, "m", &fill);
  CHECK(error_of([&] { io::read_terrain(holes, "h"); }).find("height 4 (x index 1, y index 1) is missing") !=
        std::string::npos);
  unlink(holes.c_str());

  const std::string backwards = write_file("backwards", {{"y", "m", y}, {"x", "m", {0, 2000, 1000}}}, "h", h);
  CHECK(error_of([&] { io::read_terrain(backwards, "h"); }).find("coordinate x must be finite and strictly increasing") !=
        std::string::npos);
  unlink(backwards.c_str());

  // A terrain as high as the domain is deep folds the mapping.
  mesh::TerrainGrid tall{{0, 1000}, {0}, {0, 5000}, "tall"};
  CHECK(error_of([&] { mesh::TerrainMapping(tall, mesh::Decay::linear, 0.0, 4000.0); }).find("largest |h| of tall") !=
        std::string::npos);
}
