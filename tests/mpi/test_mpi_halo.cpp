// Halo exchange: after start()/finish(), every MPI face slot holds the values the other
// side wrote for that face.
#include <catch2/catch.hpp>

#include "core/parallel_env.hpp"
#include "mesh/halo_exchange.hpp"

using namespace squall;
using namespace squall::mesh;

namespace {

/// The value the owner of `element` writes for face `face_id`, component k.
KOKKOS_INLINE_FUNCTION Real encode(int face_id, int element, int k) {
  return 1e6 * face_id + 10.0 * element + k + 0.25;
}

void check_exchange(std::array<int, 3> n, std::array<bool, 3> periodic, int values) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Brick brick(n, {{{0, 1}, {0, 1}, {0, 1}}}, periodic);
  const auto part = CartesianPartition::choose(n, comm_size(comm));
  const LocalMesh mesh(brick, part, comm_rank(comm));
  HaloExchange halo(mesh, values, comm);

  const int slots = static_cast<int>(mesh.mpi_faces().size());
  HostView<int*> ids("ids", slots), elements("elements", slots);
  for (int i = 0; i < slots; ++i) {
    ids(i) = mesh.mpi_faces()[i].id;
    elements(i) = mesh.global_element(mesh.mpi_faces()[i].element);
  }
  auto ids_d = Kokkos::create_mirror_view_and_copy(MemSpace(), ids);
  auto elements_d = Kokkos::create_mirror_view_and_copy(MemSpace(), elements);
  const auto send = halo.send_buffer();
  Kokkos::parallel_for(
      "test::fill_send", Kokkos::RangePolicy<ExecSpace>(0, slots), KOKKOS_LAMBDA(const int i) {
        for (int k = 0; k < send.extent_int(1); ++k) send(i, k) = encode(ids_d(i), elements_d(i), k);
      });

  // Two rounds: persistent requests are reusable.
  for (int round = 0; round < 2; ++round) {
    halo.start();
    halo.finish();
    const auto recv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), halo.recv_buffer());
    for (int i = 0; i < slots; ++i) {
      const MpiFace& f = mesh.mpi_faces()[i];
      const GlobalFace g = brick.face(f.id);
      const int other = f.is_minus ? g.element_plus : g.element_minus;
      for (int k = 0; k < values; ++k) CHECK(recv(i, k) == encode(f.id, other, k));
    }
  }
  // With more than one rank there is something to exchange in these meshes.
  if (comm_size(comm) > 1) CHECK(slots > 0);
}

}  // namespace

TEST_CASE("halo exchange on a periodic brick", "[mpi][halo]") {
  check_exchange({4, 2, 2}, {true, true, true}, 3);
}

TEST_CASE("halo exchange on a walled brick", "[mpi][halo]") {
  check_exchange({2, 4, 3}, {false, false, false}, 5);
}

TEST_CASE("halo exchange with two faces to the same neighbour", "[mpi][halo]") {
  // On 2 ranks each holds one x column; they meet at x = 0.5 and across the wrap.
  check_exchange({2, 2, 2}, {true, false, true}, 2);
}

TEST_CASE("two exchanges in flight at once do not mix", "[mpi][halo]") {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Brick brick({4, 2, 2}, {{{0, 1}, {0, 1}, {0, 1}}}, {true, true, true});
  const LocalMesh mesh(brick, CartesianPartition::choose({4, 2, 2}, comm_size(comm)), comm_rank(comm));
  HaloExchange a(mesh, 1, comm), b(mesh, 1, comm);
  Kokkos::deep_copy(a.send_buffer(), 1.0);
  Kokkos::deep_copy(b.send_buffer(), 2.0);
  a.start();
  b.start();
  b.finish();
  a.finish();
  const auto ra = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.recv_buffer());
  const auto rb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.recv_buffer());
  for (size_t i = 0; i < ra.extent(0); ++i) {
    CHECK(ra(i, 0) == 1.0);
    CHECK(rb(i, 0) == 2.0);
  }
}
