#include "core/signals.hpp"

#include <csignal>

namespace squall {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void record_signal(int signal) { g_signal = signal; }

}  // namespace

void install_stop_signals() {
  std::signal(SIGTERM, record_signal);
  std::signal(SIGUSR1, record_signal);
}

int received_stop_signal() { return g_signal; }

int agreed_stop_signal(MPI_Comm comm) {
  int signal = g_signal;
  MPI_Bcast(&signal, 1, MPI_INT, 0, comm);
  return signal;
}

}  // namespace squall
