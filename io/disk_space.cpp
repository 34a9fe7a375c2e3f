#include "io/disk_space.hpp"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "core/parallel_env.hpp"
#include "io/output_lock.hpp"

namespace squall::io {
namespace {

/// The directory whose file system a file at `path` is (or would be) on.
std::string directory_of(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return path;
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

}  // namespace

long long free_bytes(const std::string& path) {
  struct statvfs s;
  if (statvfs(directory_of(path).c_str(), &s) != 0) return -1;
  return static_cast<long long>(s.f_bavail) * static_cast<long long>(s.f_frsize);
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) bytes /= 1000, ++u;
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return text;
}

void require_space(const std::string& path, std::uintmax_t bytes, const std::string& what) {
  const long long available = free_bytes(path);
  if (available < 0 || static_cast<std::uintmax_t>(available) >= bytes) return;
  throw RunError("no space left on device: writing " + what + " needs about " + format_bytes(double(bytes)) +
                 ", and '" + directory_of(path) + "' has " + format_bytes(double(available)) + " free");
}

void require_space(MPI_Comm comm, const std::string& path, std::uintmax_t bytes, const std::string& what) {
  const CollectiveOutcome room = collective(comm, [&] {
    if (comm_rank(comm) == 0) require_space(path, bytes, what);
  });
  if (!room.ok()) throw RunError(room.message);
}

void rename_into_place(MPI_Comm comm, const std::string& tmp, const std::string& path) {
  const CollectiveOutcome renamed = collective(comm, [&] {
    if (comm_rank(comm) == 0 && std::rename(tmp.c_str(), path.c_str()) != 0)
      throw RunError("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno));
  });
  if (!renamed.ok()) throw RunError(renamed.message);
}

std::string full_disk_note(const std::string& path, int saved_errno) {
  const long long available = free_bytes(path);
  const bool full = saved_errno == ENOSPC || (available >= 0 && available < (1 << 20));
  if (saved_errno == EDQUOT) return " (disk quota exceeded on '" + directory_of(path) + "')";
  if (saved_errno == EFBIG) return " (file too large: the limit on the size of a file, ulimit -f, is reached)";
  if (!full) return "";
  return " (no space left on device: '" + directory_of(path) + "' has " +
         format_bytes(double(available < 0 ? 0 : available)) + " free)";
}

void end_job_after_failed_write(const std::string& partial, const std::string& message) {
  if (!partial.empty()) std::remove(partial.c_str());
  release_output_lock_now();
  abort_job(MPI_COMM_WORLD, message + "; the output library cannot go on after a failed write, so the job ends here",
            exit_run_error);
}

}  // namespace squall::io
