#include "io/output_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "core/error.hpp"

namespace squall::io {
namespace {

std::string held_lock;  // the lock file this process holds, for release_output_lock_now

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

/// The key = value lines of a lock file (empty when it cannot be read).
std::map<std::string, std::string> read_lock(const std::string& path) {
  std::map<std::string, std::string> fields;
  std::ifstream in(path);
  std::string line;
  for (int n = 0; n < 16 && std::getline(in, line); ++n) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) fields[line.substr(0, eq)] = line.substr(eq + 1, 200);
  }
  return fields;
}

/// Whether process `pid` of this host is a running squall (a PID reused by another
/// program after a crash does not count).
bool squall_running(long pid) {
  if (pid <= 0 || (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) return false;
  std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
  if (!cmdline) return true;  // no /proc: trust kill()
  std::string program;
  std::getline(cmdline, program, '\0');
  return program.find("squall") != std::string::npos;
}

/// Creates `path` with this run's details; false when it exists already.
bool create_lock(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return false;
    throw InputError("cannot create the lock file '" + path + "': " + std::strerror(errno));
  }
  std::ostringstream text;
  text << "pid=" << ::getpid() << "\nhost=" << host_name() << "\nstarted=" << utc_now() << '\n';
  if (const char* job = std::getenv("SLURM_JOB_ID")) text << "slurm_job=" << job << '\n';
  const std::string s = text.str();
  const bool ok = ::write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size());
  ::close(fd);
  if (!ok) {
    std::remove(path.c_str());
    throw InputError("cannot write the lock file '" + path + "'");
  }
  return true;
}

}  // namespace

OutputLock::OutputLock(const std::string& dir, std::string& warning) {
  const std::string path = dir + "/" + lock_file_name;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (create_lock(path)) {
      path_ = held_lock = path;
      return;
    }
    auto other = read_lock(path);
    const std::string host = other["host"];
    const long pid = std::atol(other["pid"].c_str());
    const bool here = host == host_name();
    if (attempt == 0 && here && !squall_running(pid)) {
      warning = "replaced the stale lock of a run that ended without releasing it (pid " + other["pid"] +
                ", started " + other["started"] + ") in '" + dir + "'";
      std::remove(path.c_str());
      continue;
    }
    std::string who = host.empty() ? std::string("an unknown run") : "pid " + other["pid"] + " on " + host;
    if (!other["started"].empty()) who += ", started " + other["started"];
    if (!other["slurm_job"].empty()) who += ", Slurm job " + other["slurm_job"];
    throw InputError("output directory '" + dir + "' is in use by another run (" + who + "; lock file '" + path +
                     "'): wait for it to end or choose another directory with --output" +
                     (here ? "" : "; if that run is no longer running, delete the lock file"));
  }
  throw InputError("output directory '" + dir + "': another run claimed it at the same moment");
}

OutputLock::~OutputLock() {
  if (path_.empty()) return;
  std::remove(path_.c_str());
  if (held_lock == path_) held_lock.clear();
}

OutputLock::OutputLock(OutputLock&& other) noexcept : path_(std::exchange(other.path_, {})) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    if (!path_.empty()) std::remove(path_.c_str());
    path_ = std::exchange(other.path_, {});
  }
  return *this;
}

void release_output_lock_now() {
  if (held_lock.empty()) return;
  std::remove(held_lock.c_str());
  held_lock.clear();
}

}  // namespace squall::io
