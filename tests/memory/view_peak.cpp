/// A Kokkos tools library for the memory tests: it follows every View allocation and
/// deallocation and, when Kokkos finalises, writes for each memory space the high-water
/// mark of the bytes held in its Views, and the labels held there at that moment, to the
/// file VIEW_PEAK_OUT names ("peak SPACE BYTES", then "BYTES LABEL" lines).
/// Loaded with KOKKOS_PROFILE_LIBRARY (Kokkos 3) or KOKKOS_TOOLS_LIBS (Kokkos 4).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

struct Held {
  std::string space, label;
  std::uint64_t bytes;
};
struct Space {
  std::uint64_t now = 0, peak = 0;
  std::map<std::string, std::uint64_t> at_peak;  ///< label -> bytes at the peak
};
std::map<const void*, Held> held;
std::map<std::string, Space> spaces;

}  // namespace

/// The handle Kokkos passes by value: the memory space's name.
struct SpaceHandle {
  char name[64];
};

extern "C" void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {}

extern "C" void kokkosp_allocate_data(SpaceHandle handle, const char* label, const void* ptr, std::uint64_t size) {
  const std::string name(handle.name);
  held[ptr] = {name, label, size};
  Space& space = spaces[name];
  space.now += size;
  if (space.now > space.peak) {
    space.peak = space.now;
    space.at_peak.clear();
    for (const auto& [p, h] : held)
      if (h.space == name) space.at_peak[h.label] += h.bytes;
  }
}

extern "C" void kokkosp_deallocate_data(SpaceHandle, const char*, const void* ptr, std::uint64_t) {
  const auto it = held.find(ptr);
  if (it == held.end()) return;
  spaces[it->second.space].now -= it->second.bytes;
  held.erase(it);
}

extern "C" void kokkosp_finalize_library() {
  const char* path = std::getenv("VIEW_PEAK_OUT");
  if (!path) return;
  std::FILE* f = std::fopen(path, "w");
  if (!f) return;
  for (const auto& [name, space] : spaces) {
    std::fprintf(f, "peak %s %llu\n", name.c_str(), static_cast<unsigned long long>(space.peak));
    for (const auto& [label, bytes] : space.at_peak)
      std::fprintf(f, "%llu %s\n", static_cast<unsigned long long>(bytes), label.c_str());
  }
  std::fclose(f);
}
