#pragma once
/// Exchange of face data across MPI faces with persistent non-blocking requests.
///
/// The caller writes the values of its side of MPI face slot i (LocalMesh::mpi_faces()
/// order) into send_buffer()(i, :) from a kernel, calls start(), does interior work,
/// then finish(); recv_buffer()(i, :) then holds the other side's values for slot i.
/// Both buffers are device Views laid out [slot][value] (LayoutRight), so a neighbour's
/// block is contiguous and is handed to MPI as is: no packing kernel. Where MPI cannot
/// read device memory (a GPU backend without SQUALL_GPU_AWARE_MPI) the blocks are staged
/// through host mirrors in start() / finish().
///
/// Each exchange uses its own duplicate of the communicator, so several can be in
/// flight at once (state, gradients) without their messages mixing.
#include <mpi.h>

#include <vector>

#include "core/types.hpp"
#include "mesh/local_mesh.hpp"

namespace squall::mesh {

class HaloExchange {
 public:
  HaloExchange(const LocalMesh& mesh, int values_per_face, MPI_Comm comm);
  ~HaloExchange();
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  const DeviceView<Real**>& send_buffer() const { return send_; }
  const DeviceView<Real**>& recv_buffer() const { return recv_; }

  /// Starts all sends and receives. Waits for outstanding kernels first (they may still
  /// be writing the send buffer).
  void start();
  /// Completes the exchange; recv_buffer() is valid afterwards.
  void finish();

 private:
  int values_per_face_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  DeviceView<Real**> send_, recv_;
  HostView<Real**> send_host_, recv_host_;  // staging, only where MPI cannot see device memory
  bool staged_;
  std::vector<MPI_Request> requests_;
  bool in_flight_ = false;
};

}  // namespace squall::mesh
