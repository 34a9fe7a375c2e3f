// A fault injected from outside: preloaded into squall (LD_PRELOAD), this library lets
// the first write of a checkpoint's state dataset reach the file and then ends the
// process at once, as a kill in the middle of a checkpoint would (no attributes, no
// rename). The restart tests use it to show that such a death leaves the previous
// checkpoint whole. Nothing of it is in squall itself.
#include <dlfcn.h>
#include <hdf5.h>
#include <unistd.h>

#include <cstring>

extern "C" herr_t H5Dwrite(hid_t dataset, hid_t memory_type, hid_t memory_space, hid_t file_space, hid_t transfer,
                           const void* data) {
  using Write = herr_t (*)(hid_t, hid_t, hid_t, hid_t, hid_t, const void*);
  static const Write real = reinterpret_cast<Write>(dlsym(RTLD_NEXT, "H5Dwrite"));
  const herr_t status = real(dataset, memory_type, memory_space, file_space, transfer, data);
  char name[64] = {0};
  H5Iget_name(dataset, name, sizeof name);
  if (std::strcmp(name, "/state") == 0) _exit(9);
  return status;
}
