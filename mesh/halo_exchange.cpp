#include "mesh/halo_exchange.hpp"

#include <string>

#include "core/error.hpp"

namespace squall::mesh {
namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw RunError(std::string("halo exchange: ") + what + " failed: " + std::string(text, length));
}

}  // namespace

HaloExchange::HaloExchange(const LocalMesh& mesh, int values_per_face, MPI_Comm comm)
    : values_per_face_(values_per_face), staged_(!mpi_reads_device_memory) {
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  const int slots = static_cast<int>(mesh.mpi_faces().size());
  send_ = DeviceView<Real**>("halo::send", slots, values_per_face);
  recv_ = DeviceView<Real**>("halo::recv", slots, values_per_face);
  Real* send_data = send_.data();
  Real* recv_data = recv_.data();
  if (staged_) {
    send_host_ = HostView<Real**>("halo::send_host", slots, values_per_face);
    recv_host_ = HostView<Real**>("halo::recv_host", slots, values_per_face);
    send_data = send_host_.data();
    recv_data = recv_host_.data();
  }
  constexpr int tag = 7;
  for (const Neighbor& nb : mesh.neighbors()) {
    const std::size_t offset = static_cast<std::size_t>(nb.first_face) * values_per_face;
    const int count = nb.face_count * values_per_face;
    MPI_Request r;
    check(MPI_Recv_init(recv_data + offset, count, MPI_DOUBLE, nb.rank, tag, comm_, &r),
          "MPI_Recv_init");
    requests_.push_back(r);
    check(MPI_Send_init(send_data + offset, count, MPI_DOUBLE, nb.rank, tag, comm_, &r),
          "MPI_Send_init");
    requests_.push_back(r);
  }
}

HaloExchange::~HaloExchange() {
  if (in_flight_) MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (MPI_Request& r : requests_) MPI_Request_free(&r);
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void HaloExchange::start() {
  Kokkos::fence();
  if (staged_) Kokkos::deep_copy(send_host_, send_);
  if (requests_.empty()) return;
  check(MPI_Startall(static_cast<int>(requests_.size()), requests_.data()), "MPI_Startall");
  in_flight_ = true;
}

void HaloExchange::finish() {
  if (in_flight_) {
    in_flight_ = false;
    check(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall");
  }
  if (staged_) Kokkos::deep_copy(recv_, recv_host_);
}

}  // namespace squall::mesh
