#include <cstdio>
#include <string>

#include "solver/simulation_impl.hpp"

namespace squall::detail {

std::string format_duration(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9) return "?";
  const long s = static_cast<long>(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else if (s >= 60)
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%.1fs", seconds);
  return text;
}

std::string field_file_name(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "fields_%06d.nc", index);
  return name;
}

}  // namespace squall::detail
