// edit_checkpoint FILE set NAME VALUE | edit_checkpoint FILE delete NAME
// Edits one attribute of a checkpoint in place, as a user with h5py or HDFView might:
// `set` overwrites a numeric attribute (scalar or the first of its values) with VALUE in
// the attribute's own type, `delete` removes it. The restart tests use it to show that
// edited metadata are refused and that a file without the metadata checksum (as earlier
// versions wrote) restarts with a warning. Exit status 1 with a message on failure.
#include <hdf5.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "edit_checkpoint: %s\n", what.c_str());
  return 1;
}

int set(hid_t file, const char* name, const char* text) {
  const hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
  if (attribute < 0) return fail(std::string("no attribute '") + name + "'");
  const hid_t space = H5Aget_space(attribute), type = H5Aget_type(attribute);
  const hssize_t count = H5Sget_simple_extent_npoints(space);
  int status = 0;
  if (H5Tget_class(type) == H5T_FLOAT) {
    std::vector<double> values(count);
    H5Aread(attribute, H5T_NATIVE_DOUBLE, values.data());
    values[0] = std::strtod(text, nullptr);
    status = H5Awrite(attribute, H5T_NATIVE_DOUBLE, values.data());
  } else if (H5Tget_class(type) == H5T_INTEGER) {
    std::vector<long> values(count);
    H5Aread(attribute, H5T_NATIVE_LONG, values.data());
    values[0] = std::strtol(text, nullptr, 10);
    status = H5Awrite(attribute, H5T_NATIVE_LONG, values.data());
  } else {
    status = -1;
  }
  H5Tclose(type), H5Sclose(space), H5Aclose(attribute);
  return status < 0 ? fail(std::string("cannot write attribute '") + name + "'") : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool set_value = argc == 5 && std::strcmp(argv[2], "set") == 0;
  const bool remove = argc == 4 && std::strcmp(argv[2], "delete") == 0;
  if (!set_value && !remove) return fail("usage: edit_checkpoint FILE set NAME VALUE | FILE delete NAME");
  const hid_t file = H5Fopen(argv[1], H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) return fail(std::string("cannot open '") + argv[1] + "'");
  int status = 0;
  if (set_value)
    status = set(file, argv[3], argv[4]);
  else if (H5Adelete(file, argv[3]) < 0)
    status = fail(std::string("cannot delete attribute '") + argv[3] + "'");
  H5Fclose(file);
  return status;
}
