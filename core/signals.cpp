#include "core/signals.hpp"

#include <csignal>

namespace squall {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void record_signal(int signal) {
  // Ctrl-C twice: the default action, now (launchers may repeat SIGTERM; it stays graceful).
  if (g_signal != 0 && signal == SIGINT) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_signal = signal;
}

}  // namespace

void install_stop_signals() {
  std::signal(SIGTERM, record_signal);
  std::signal(SIGINT, record_signal);
  std::signal(SIGUSR1, record_signal);
}

int received_stop_signal() { return g_signal; }

int agreed_stop_signal(MPI_Comm comm) {
  int signal = g_signal, agreed = 0;
  MPI_Allreduce(&signal, &agreed, 1, MPI_INT, MPI_MAX, comm);
  return agreed;
}

}  // namespace squall
