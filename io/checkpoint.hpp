#pragma once
/// checkpoint_NNNNNN.h5: the exact state of a run, written collectively by all ranks
/// through parallel HDF5, readable on any number of ranks.
///
/// Layout: dataset "state", doubles, dimensions (nz, ny, nx, values per element): row
/// (k, j, i) is element (i, j, k), so rows are in global element order and each rank's
/// Cartesian block is one hyperslab. Attributes carry the metadata below. A file is
/// written as NAME.tmp and renamed when complete, so a checkpoint_*.h5 that exists is
/// whole; the checksums of its data and of its metadata are verified on reading.
#include <mpi.h>

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace squall::io {

struct CheckpointMeta {
  double time = 0;
  long step = 0;
  long output_count = 0;  ///< field outputs written so far (keeps output times exact)
  double dt = 0;          ///< last time step
  std::string case_name, version, config_text, checksum;
  std::string variables;  ///< the state's variables, comma-separated (rho,rhou,...,rho_<tracer>)
  int order = 0;
  std::array<int, 3> elements{};
  std::array<double, 6> domain{};  ///< x0, x1, y0, y1, z0, z1
  std::array<int, 3> periodic{};
  std::vector<double> z_faces;  ///< the element faces along z (nz + 1); empty: equal heights
  /// The terrain under the mesh ([terrain] keys, one line); empty: flat (the attribute is
  /// then absent, as in files of earlier versions).
  std::string terrain;
  /// The ledger's numbers, by attribute name (e.g. initial_mass, boundary_energy: the
  /// integral at t = 0 and what entered through the walls since, of each conserved
  /// quantity of the equation set). The reader fills the names it is given.
  std::vector<std::pair<std::string, double>> ledger;
  double max_diffusivity = 0;                   ///< largest nu + nu_t of the last stage
  /// Time of the newest diagnostics row and profile record the output schedule wrote (a
  /// run's last records, written when it stops between output times, are not), where a
  /// restart cuts diagnostics.csv and profiles.nc; -1 when the file has none (earlier
  /// versions).
  double records_time = -1;
  /// Read: whether the file carried the checksum of these metadata (attribute
  /// metadata_checksum, which write_checkpoint adds and read_checkpoint_meta verifies).
  bool metadata_verified = false;
};

/// This rank's block of the global element grid.
struct CheckpointBlock {
  std::array<int, 3> start{};  ///< first element index along x, y, z
  std::array<int, 3> count{};  ///< elements along x, y, z
  int values_per_element = 0;
};

/// Writes `dir`/checkpoint_<step>.h5 (collective); `data` is this rank's block, element
/// rows x fastest. Returns the path. RunError naming the file and HDF5's message.
std::string write_checkpoint(const std::string& dir, MPI_Comm comm, const CheckpointMeta& meta,
                             const CheckpointBlock& block, const double* data);

/// The metadata of `path`, with the ledger values named in `ledger_names`. The text
/// attributes (case, version, variables, ...) are read first and handed to `check`,
/// which may refuse the file before the numbers are read. Collective; InputError naming
/// the file when it is not a complete Squall checkpoint or when its metadata do not
/// match their checksum (an edited time, step, ledger value, ...).
CheckpointMeta read_checkpoint_meta(const std::string& path, MPI_Comm comm,
                                    const std::vector<std::string>& ledger_names,
                                    const std::function<void(const CheckpointMeta&)>& check);

/// Reads this rank's block of the state (collective); InputError on failure.
void read_checkpoint_state(const std::string& path, MPI_Comm comm, const CheckpointBlock& block,
                           double* data);

/// The newest complete checkpoint in `dir` (highest step), or "" when there is none.
std::string latest_checkpoint(const std::string& dir);

/// Deletes all but the newest `keep` checkpoints in `dir` (call on one rank).
void prune_checkpoints(const std::string& dir, int keep);

/// Folder inside an output directory that holds the checkpoints a new run set aside.
inline constexpr const char* superseded_dir = "superseded_checkpoints";

/// Moves the checkpoints in `dir` with a step above `after_step` into `dir`/superseded_checkpoints
/// (replacing the checkpoints that folder held, except the file `keep`, the one a restart
/// was read from) and returns their file names (call on one rank). A run starting at
/// `after_step` calls it first: checkpoints of an earlier or abandoned run would otherwise
/// outrank the new run's own in pruning and in `--restart latest`.
std::vector<std::string> set_aside_checkpoints(const std::string& dir, long after_step, const std::string& keep);

}  // namespace squall::io
