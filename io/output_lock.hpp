#pragma once
/// One run per output directory. Two runs writing into one directory interleave their
/// files and set each other's checkpoints aside; a run therefore claims its directory
/// with a lock file, DIR/.squall.lock, naming its process, host, start time and batch
/// job. The file is removed when the run ends, whatever the exit status; a lock left by
/// a run that died (SIGKILL, a node failure) is recognised as stale when its process is
/// gone from this host, and replaced with a warning.
#include <string>

namespace squall::io {

inline constexpr const char* lock_file_name = ".squall.lock";

class OutputLock {
 public:
  OutputLock() = default;
  /// Claims `dir`. InputError naming the other run (and how to go on) when a live run, or
  /// one on another host, holds it. `warning` is set when a stale lock was replaced.
  OutputLock(const std::string& dir, std::string& warning);
  ~OutputLock();
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  bool held() const { return !path_.empty(); }

 private:
  std::string path_;
};

/// Removes the lock this process holds, if any: for an exit that skips destructors
/// (a job ended by MPI_Abort).
void release_output_lock_now();

}  // namespace squall::io
