#pragma once
/// NetCDF-4 field files, CF-1.8, written in parallel by all ranks (nc_create_par over
/// MPI-IO, collective writes). One file holds one time: dimensions (time, z, y, x) with
/// coordinate variables, and one variable per field. Each rank writes its block of the
/// global rectilinear grid. The file is written under a temporary name and renamed when
/// complete, so a file that exists is whole.
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

namespace squall::io {

struct FieldGrid {
  std::array<std::vector<double>, 3> axes;  ///< global coordinates along x, y, z [m]
  std::array<std::size_t, 3> start{};       ///< this rank's first point along x, y, z
  std::array<std::size_t, 3> count{};       ///< this rank's number of points along x, y, z
  /// Terrain-following grids: the height of every point of this rank's block (as the
  /// fields), written as the auxiliary coordinate `altitude` that every field names in
  /// its CF `coordinates` attribute, and the terrain's height under this rank's columns
  /// (x fastest; null where the rank holds no bottom layer), written as `surface_altitude`.
  /// Both null on a flat brick: z is then the height itself.
  const double* altitude = nullptr;
  const double* surface = nullptr;
};

struct FieldVariable {
  std::string name;
  std::string long_name;
  std::string standard_name;  ///< CF standard name, empty if none
  std::string units;
  const double* data;  ///< this rank's block, x fastest: data[i + cx (j + cy k)]
};

/// The time of the (single) record of field file `path`; NaN when it cannot be read.
double read_field_time(const std::string& path);

/// Writes `path` collectively; RunError naming the file and NetCDF's message on failure.
/// `time_units`: CF units of the time coordinate, "seconds since <date>".
void write_fields(const std::string& path, MPI_Comm comm, const FieldGrid& grid, double time,
                  const std::string& time_units, const std::vector<FieldVariable>& variables,
                  const std::vector<std::pair<std::string, std::string>>& global_attributes);

}  // namespace squall::io
