#include "io/checkpoint.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <functional>
#include <utility>

#include "core/error.hpp"
#include "core/parallel_env.hpp"
#include "io/disk_space.hpp"

namespace squall::io {
namespace {

/// The innermost message of HDF5's error stack.
std::string hdf5_message() {
  std::string message;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
        auto* text = static_cast<std::string*>(out);
        if (text->empty() && e->desc) *text = e->desc;
        return 0;
      },
      &message);
  H5Eclear2(H5E_DEFAULT);
  return message.empty() ? "unknown HDF5 error" : message;
}

/// Closes an HDF5 handle when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

/// Turns HDF5 failures in reading `path` into InputErrors naming it. Every rank of `comm`
/// calls it after every library call, and all ranks learn whether any of them failed: all
/// throw together, and no rank goes on alone into the next collective call (where it
/// would wait for ever).
struct ReadChecker {
  std::string path;
  MPI_Comm comm;
  hid_t operator()(hid_t id, const char* what) const {
    const CollectiveOutcome agreed = collective(comm, [&] {
      if (id < 0) throw InputError("HDF5 error on '" + path + "' (" + what + "): " + hdf5_message());
    });
    if (!agreed.ok()) throw InputError(agreed.message);
    return id;
  }
};

/// Checks the library calls that write `path` (the unfinished copy of a checkpoint). HDF5
/// cannot recover from a write that failed on some ranks (the others wait inside the
/// library), so a failure removes `path` and ends the job; the previous checkpoint stays.
struct WriteChecker {
  std::string path;
  hid_t operator()(hid_t id, const char* what) const {
    if (id >= 0) return id;
    const int saved_errno = errno;
    end_job_after_failed_write(path, "HDF5 error on '" + path + "' (" + what + "): " + hdf5_message() +
                                         full_disk_note(path, saved_errno));
  }
};

void quiet_hdf5() {
  static bool done = false;
  if (!done) H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr), done = true;
}

hid_t mpio_access(MPI_Comm comm) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL);
  return fapl;
}

template <class C>
void put_attribute(const C& check, hid_t file, const char* name, hid_t type, const void* value, hsize_t n = 1) {
  Handle space(check(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), name), H5Sclose);
  Handle attribute(check(H5Acreate2(file, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), name), H5Aclose);
  check(H5Awrite(attribute.get(), type, value), name);
}

template <class C>
void put_string(const C& check, hid_t file, const char* name, const std::string& value) {
  Handle type(check(H5Tcopy(H5T_C_S1), name), H5Tclose);
  H5Tset_size(type.get(), std::max<size_t>(1, value.size()));
  put_attribute(check, file, name, type.get(), value.empty() ? "" : value.c_str());
}

template <class C>
std::string get_string(const C& check, hid_t file, const char* name) {
  Handle attribute(check(H5Aopen(file, name, H5P_DEFAULT), name), H5Aclose);
  Handle type(check(H5Aget_type(attribute.get()), name), H5Tclose);
  std::string value(H5Tget_size(type.get()), '\0');
  check(H5Aread(attribute.get(), type.get(), value.data()), name);
  value.resize(std::strlen(value.c_str()));
  return value;
}

/// The hyperslab of this rank's block in the (nz, ny, nx, values) dataset.
hid_t block_space(hid_t dataset_space, const CheckpointBlock& b) {
  const hsize_t start[4] = {hsize_t(b.start[2]), hsize_t(b.start[1]), hsize_t(b.start[0]), 0};
  const hsize_t count[4] = {hsize_t(b.count[2]), hsize_t(b.count[1]), hsize_t(b.count[0]),
                            hsize_t(b.values_per_element)};
  H5Sselect_hyperslab(dataset_space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  return H5Screate_simple(4, count, nullptr);
}

hid_t collective_transfer() {
  const hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  return dxpl;
}

/// The numeric attributes of a checkpoint, one table for writing and reading.
struct NumericAttribute {
  const char* name;
  hid_t type;
  void* value;
  hsize_t count;
  bool optional;  ///< files of earlier versions may lack it (the reader keeps the default)
};

NumericAttribute attribute(const char* name, hid_t type, void* value, hsize_t count = 1, bool optional = false) {
  NumericAttribute a;
  a.name = name, a.type = type, a.value = value, a.count = count, a.optional = optional;
  return a;
}

std::vector<NumericAttribute> numeric_attributes(CheckpointMeta& m) {
  // Built call by call: HDF5's type macros expand to comma expressions that some device
  // compiler front ends reject inside braced initialiser lists.
  const hid_t real = H5T_NATIVE_DOUBLE, integer = H5T_NATIVE_INT, long_integer = H5T_NATIVE_LONG;
  std::vector<NumericAttribute> list;
  list.push_back(attribute("time", real, &m.time));
  list.push_back(attribute("step", long_integer, &m.step));
  list.push_back(attribute("output_count", long_integer, &m.output_count));
  list.push_back(attribute("dt", real, &m.dt));
  list.push_back(attribute("polynomial_order", integer, &m.order));
  list.push_back(attribute("elements", integer, m.elements.data(), 3));
  list.push_back(attribute("domain", real, m.domain.data(), 6));
  list.push_back(attribute("periodic", integer, m.periodic.data(), 3));
  // Only meshes with element layers of different heights have it (read_checkpoint_meta
  // sizes m.z_faces from the file before it reads this table).
  if (!m.z_faces.empty()) list.push_back(attribute("z_faces", real, m.z_faces.data(), m.z_faces.size()));
  for (auto& [name, value] : m.ledger) list.push_back(attribute(name.c_str(), real, &value));
  list.push_back(attribute("max_diffusivity", real, &m.max_diffusivity));
  list.push_back(attribute("records_time", real, &m.records_time, 1, true));
  return list;
}

std::vector<std::pair<const char*, std::string*>> string_attributes(CheckpointMeta& m) {
  std::vector<std::pair<const char*, std::string*>> list{{"case", &m.case_name},
                                                         {"version", &m.version},
                                                         {"config", &m.config_text},
                                                         {"state_checksum", &m.checksum},
                                                         {"variables", &m.variables}};
  // Only runs over terrain have it (read_checkpoint_meta reads it before this table).
  if (!m.terrain.empty()) list.push_back({"terrain", &m.terrain});
  return list;
}

/// The attribute that holds metadata_checksum(m).
constexpr const char* metadata_checksum_name = "metadata_checksum";

/// Hex digest of every attribute a restart reads (the numbers in their stored types, the
/// texts, the state checksum among them), in the order of the two tables: FNV-1a over
/// each attribute's name, its value count and its bytes. An edited time, step, output
/// count, ledger value or config text no longer matches it.
std::string metadata_checksum(CheckpointMeta& m) {
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t b = 0; b < size; ++b) h = (h ^ bytes[b]) * 1099511628211ull;
  };
  const auto mix_name = [&mix](const char* name) { mix(name, std::strlen(name) + 1); };
  for (const auto& a : numeric_attributes(m)) {
    mix_name(a.name);
    const std::uint64_t count = a.count;
    mix(&count, sizeof count);
    mix(a.value, a.count * H5Tget_size(a.type));
  }
  for (const auto& [name, value] : string_attributes(m)) {
    mix_name(name);
    const std::uint64_t size = value->size();
    mix(&size, sizeof size);
    mix(value->data(), value->size());
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

/// The size of a checkpoint, generously: the state, the texts, and room for HDF5's
/// metadata.
std::uintmax_t estimated_size(const CheckpointMeta& m, const CheckpointBlock& b) {
  const std::uintmax_t values = std::uintmax_t(m.elements[0]) * m.elements[1] * m.elements[2] * b.values_per_element;
  return values * sizeof(double) + m.config_text.size() + metadata_room;
}

int step_of(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  if (name.rfind("checkpoint_", 0) != 0 || p.extension() != ".h5") return -1;
  try {
    return std::stoi(name.substr(11, name.size() - 14));
  } catch (...) {
    return -1;
  }
}

std::vector<std::filesystem::path> checkpoints_by_step(const std::string& dir) {
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file() && step_of(entry.path()) >= 0) found.push_back(entry.path());
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return step_of(a) < step_of(b); });
  return found;
}

}  // namespace

std::string write_checkpoint(const std::string& dir, MPI_Comm comm, const CheckpointMeta& meta,
                             const CheckpointBlock& block, const double* data) {
  quiet_hdf5();
  char file_name[64];
  std::snprintf(file_name, sizeof file_name, "checkpoint_%06ld.h5", meta.step);
  const std::string path = dir + "/" + file_name, tmp = path + ".tmp";
  const WriteChecker check{tmp};
  // Refused before the file is created when the disk cannot hold it: the previous
  // checkpoint stays the newest, and HDF5 is not left with a file it cannot close.
  require_space(comm, path, estimated_size(meta, block), "checkpoint '" + path + "'");
  {
    Handle fapl(mpio_access(comm), H5Pclose);
    Handle file(check(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), "create"), H5Fclose);
    const hsize_t dims[4] = {hsize_t(meta.elements[2]), hsize_t(meta.elements[1]), hsize_t(meta.elements[0]),
                             hsize_t(block.values_per_element)};
    Handle space(check(H5Screate_simple(4, dims, nullptr), "dataspace"), H5Sclose);
    Handle dataset(check(H5Dcreate2(file.get(), "state", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT,
                                    H5P_DEFAULT, H5P_DEFAULT), "dataset"), H5Dclose);
    Handle memory(check(block_space(space.get(), block), "selection"), H5Sclose);
    Handle dxpl(collective_transfer(), H5Pclose);
    check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), dxpl.get(), data), "write");

    const hid_t f = file.get();
    CheckpointMeta m = meta;
    for (const auto& a : numeric_attributes(m)) put_attribute(check, f, a.name, a.type, a.value, a.count);
    for (const auto& [name, value] : string_attributes(m)) put_string(check, f, name, *value);
    put_string(check, f, metadata_checksum_name, metadata_checksum(m));
    check(H5Fflush(f, H5F_SCOPE_GLOBAL), "flush");
  }
  MPI_Barrier(comm);
  rename_into_place(comm, tmp, path);
  return path;
}

CheckpointMeta read_checkpoint_meta(const std::string& path, MPI_Comm comm,
                                    const std::vector<std::string>& ledger_names,
                                    const std::function<void(const CheckpointMeta&)>& check_text) {
  quiet_hdf5();
  const ReadChecker check{path, comm};
  if (!std::filesystem::is_regular_file(path)) throw InputError("no checkpoint file '" + path + "'");
  Handle fapl(mpio_access(comm), H5Pclose);
  Handle file(check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), "open: not a complete HDF5 file"),
              H5Fclose);
  CheckpointMeta m;
  for (const auto& name : ledger_names) m.ledger.emplace_back(name, 0.0);
  const hid_t f = file.get();
  if (H5Aexists(f, "terrain") > 0) m.terrain = get_string(check, f, "terrain");
  for (const auto& [name, value] : string_attributes(m)) *value = get_string(check, f, name);
  check_text(m);
  if (H5Aexists(f, "z_faces") > 0) {
    Handle attribute(check(H5Aopen(f, "z_faces", H5P_DEFAULT), "z_faces"), H5Aclose);
    Handle space(check(H5Aget_space(attribute.get()), "z_faces"), H5Sclose);
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count < 2 || count > (hssize_t(1) << 28)) throw InputError("'" + path + "': attribute 'z_faces' has the wrong size");
    m.z_faces.resize(static_cast<std::size_t>(count));
  }
  for (const auto& a : numeric_attributes(m)) {
    if (a.optional && H5Aexists(f, a.name) <= 0) continue;
    // the stored size must be the expected one: a damaged or foreign file is refused
    Handle attribute(check(H5Aopen(f, a.name, H5P_DEFAULT), a.name), H5Aclose);
    Handle space(check(H5Aget_space(attribute.get()), a.name), H5Sclose);
    if (H5Sget_simple_extent_npoints(space.get()) != static_cast<hssize_t>(a.count))
      throw InputError("'" + path + "': attribute '" + a.name + "' has the wrong size");
    check(H5Aread(attribute.get(), a.type, a.value), a.name);
  }
  // Written since the metadata checksum was introduced; older files restart unverified.
  const htri_t has_checksum = H5Aexists(f, metadata_checksum_name);
  m.metadata_verified = has_checksum > 0;
  if (m.metadata_verified) {
    const std::string stored = get_string(check, f, metadata_checksum_name), computed = metadata_checksum(m);
    if (stored != computed)
      throw InputError("refusing checkpoint '" + path + "': its metadata (time, step, output_count, the ledger, " +
                       "the config text) do not match their checksum (" + computed + " != " + stored +
                       "): the file was edited or is damaged");
  }
  return m;
}

void read_checkpoint_state(const std::string& path, MPI_Comm comm, const CheckpointBlock& block, double* data) {
  quiet_hdf5();
  const ReadChecker check{path, comm};
  Handle fapl(mpio_access(comm), H5Pclose);
  Handle file(check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), "open"), H5Fclose);
  Handle dataset(check(H5Dopen2(file.get(), "state", H5P_DEFAULT), "state"), H5Dclose);
  Handle space(check(H5Dget_space(dataset.get()), "state"), H5Sclose);
  hsize_t dims[4] = {0, 0, 0, 0};
  if (H5Sget_simple_extent_ndims(space.get()) != 4 || H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 4 ||
      dims[3] != hsize_t(block.values_per_element))
    throw InputError("'" + path + "': the state has the wrong shape for this configuration");
  Handle memory(check(block_space(space.get(), block), "selection"), H5Sclose);
  Handle dxpl(collective_transfer(), H5Pclose);
  check(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), dxpl.get(), data), "read");
}

std::string latest_checkpoint(const std::string& dir) {
  const auto all = checkpoints_by_step(dir);
  return all.empty() ? std::string() : all.back().string();
}

void prune_checkpoints(const std::string& dir, int keep) {
  const auto all = checkpoints_by_step(dir);
  for (size_t i = 0; i + keep < all.size(); ++i) {
    std::error_code ec;
    std::filesystem::remove(all[i], ec);
  }
}

std::vector<std::string> set_aside_checkpoints(const std::string& dir, long after_step, const std::string& keep) {
  std::vector<std::filesystem::path> later;
  for (const auto& p : checkpoints_by_step(dir))
    if (step_of(p) > after_step) later.push_back(p);
  if (later.empty()) return {};
  const std::filesystem::path aside = std::filesystem::path(dir) / superseded_dir;
  std::error_code ec;
  std::filesystem::create_directories(aside, ec);
  if (ec) throw RunError("cannot create '" + aside.string() + "': " + ec.message());
  for (const auto& old : checkpoints_by_step(aside.string()))
    if (keep.empty() || !std::filesystem::equivalent(old, keep, ec)) std::filesystem::remove(old, ec);
  std::vector<std::string> moved;
  for (const auto& p : later) {
    std::filesystem::rename(p, aside / p.filename(), ec);
    if (ec) throw RunError("cannot move '" + p.string() + "' to '" + aside.string() + "': " + ec.message());
    moved.push_back(p.filename().string());
  }
  return moved;
}

}  // namespace squall::io
