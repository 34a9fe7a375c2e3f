#pragma once
/// Wall-clock timers per named phase (volume, surface, halo wait, output, ...). Each rank
/// accumulates its own; `summarize` turns them into min / mean / max over ranks for
/// summary.json, which shows load imbalance.
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

namespace squall {

struct TimerSummary {
  std::string name;
  double min_seconds = 0;
  double mean_seconds = 0;
  double max_seconds = 0;
  long calls = 0;  ///< on rank 0
};

class Timers {
 public:
  /// Adds `seconds` to the phase `name`, creating it if needed.
  void add(const std::string& name, double seconds);
  double seconds(const std::string& name) const;
  /// Forgets every phase (e.g. after warm-up steps).
  void clear() { entries_.clear(); }
  /// While paused, add() does nothing: diagnostic work that runs the phases (the extra
  /// right-hand side of the subgrid profiles) stays out of their times. Returns the
  /// previous setting.
  bool pause(bool paused) {
    const bool was = paused_;
    paused_ = paused;
    return was;
  }
  long calls(const std::string& name) const;

  /// Collective over `comm`. Every rank must pass the same set of phase names (a phase
  /// that one rank never entered is reported as 0 there); names are taken from rank 0.
  std::vector<TimerSummary> summarize(MPI_Comm comm) const;

 private:
  struct Entry {
    double seconds = 0;
    long calls = 0;
  };
  std::map<std::string, Entry> entries_;
  bool paused_ = false;
};

/// Times a scope into `timers` under `name`. With `fence`, waits for outstanding device
/// work at start and stop so asynchronous kernels are charged to the right phase.
class ScopedTimer {
 public:
  ScopedTimer(Timers& timers, std::string name, bool fence = true);
  ~ScopedTimer();
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  Timers& timers_;
  std::string name_;
  bool fence_;
  double start_;
};

}  // namespace squall
