#include "core/timers.hpp"

#include <Kokkos_Core.hpp>

#include "core/parallel_env.hpp"

namespace squall {

void Timers::add(const std::string& name, double seconds) {
  if (paused_) return;
  Entry& e = entries_[name];
  e.seconds += seconds;
  e.calls += 1;
}

double Timers::seconds(const std::string& name) const {
  const auto it = entries_.find(name);
  return it == entries_.end() ? 0.0 : it->second.seconds;
}

long Timers::calls(const std::string& name) const {
  const auto it = entries_.find(name);
  return it == entries_.end() ? 0 : it->second.calls;
}

std::vector<TimerSummary> Timers::summarize(MPI_Comm comm) const {
  const int size = comm_size(comm);

  // Agree on the names (rank 0's list, newline-separated).
  std::string names;
  for (const auto& kv : entries_) names += kv.first + '\n';
  broadcast(comm, names, 0);

  std::vector<TimerSummary> out;
  size_t begin = 0;
  while (begin < names.size()) {
    const size_t end = names.find('\n', begin);
    TimerSummary s;
    s.name = names.substr(begin, end - begin);
    s.calls = calls(s.name);
    out.push_back(s);
    begin = end + 1;
  }
  const size_t n = out.size();
  std::vector<double> local(n), lo(n), hi(n), sum(n);
  for (size_t i = 0; i < n; ++i) local[i] = seconds(out[i].name);
  MPI_Allreduce(local.data(), lo.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(local.data(), hi.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(local.data(), sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, comm);
  for (size_t i = 0; i < n; ++i) {
    out[i].min_seconds = lo[i];
    out[i].max_seconds = hi[i];
    out[i].mean_seconds = sum[i] / size;
  }
  return out;
}

ScopedTimer::ScopedTimer(Timers& timers, std::string name, bool fence)
    : timers_(timers), name_(std::move(name)), fence_(fence) {
  if (fence_) Kokkos::fence();
  start_ = MPI_Wtime();
}

ScopedTimer::~ScopedTimer() {
  if (fence_) Kokkos::fence();
  timers_.add(name_, MPI_Wtime() - start_);
}

}  // namespace squall
