// Cartesian partition and per-rank face lists: every element on exactly one rank, every
// face classified once, MPI face lists that match pairwise between neighbours.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "core/error.hpp"
#include "mesh/local_mesh.hpp"
#include "mesh/partition.hpp"

using namespace squall::mesh;

namespace {

void check_partition(std::array<int, 3> n, std::array<bool, 3> periodic, int nranks) {
  INFO("mesh " << n[0] << "x" << n[1] << "x" << n[2] << " periodic " << periodic[0]
               << periodic[1] << periodic[2] << " on " << nranks << " ranks");
  const Brick brick(n, {{{0, 1}, {0, 1}, {0, 1}}}, periodic);
  const auto part = CartesianPartition::choose(n, nranks);
  REQUIRE(part.rank_count() == nranks);

  std::vector<LocalMesh> meshes;
  for (int r = 0; r < nranks; ++r) meshes.emplace_back(brick, part, r);

  // Every element on exactly one rank, the rank `owner` names; block sizes within one.
  std::vector<int> owner(brick.element_count(), -1);
  int smallest = brick.element_count(), largest = 0;
  for (const auto& m : meshes) {
    smallest = std::min(smallest, m.element_count());
    largest = std::max(largest, m.element_count());
    for (int l = 0; l < m.element_count(); ++l) {
      const int e = m.global_element(l);
      CHECK(owner[e] == -1);
      owner[e] = m.rank();
      CHECK(m.local_element(e) == l);
      CHECK(part.owner(brick.element_coords(e)) == m.rank());
      if (l > 0) CHECK(m.global_element(l - 1) < e);
    }
  }
  for (int e = 0; e < brick.element_count(); ++e) CHECK(owner[e] >= 0);
  CHECK(smallest >= 1);

  // Every global face is interior on one rank, a wall on one rank, or an MPI face on
  // exactly two ranks with opposite sides.
  std::map<int, int> interior, boundary, mpi;
  for (const auto& m : meshes) {
    for (const auto& f : m.interior_faces()) {
      ++interior[f.id];
      const GlobalFace g = brick.face(f.id);
      CHECK(m.global_element(f.element_minus) == g.element_minus);
      CHECK(m.global_element(f.element_plus) == g.element_plus);
    }
    for (const auto& f : m.boundary_faces()) {
      ++boundary[f.id];
      CHECK(brick.face(f.id).wall == f.local_face);
    }
    for (const auto& f : m.mpi_faces()) {
      ++mpi[f.id];
      const GlobalFace g = brick.face(f.id);
      CHECK((f.is_minus ? g.element_minus : g.element_plus) == m.global_element(f.element));
      CHECK(owner[f.is_minus ? g.element_plus : g.element_minus] == f.neighbor_rank);
      CHECK(f.neighbor_rank != m.rank());
    }
  }
  for (int id = 0; id < brick.face_count(); ++id) {
    const int count = interior[id] + boundary[id] + mpi[id];
    CHECK(count == (mpi[id] ? 2 : 1));
  }

  // Slot i of r's block to s is the same face as slot i of s's block to r.
  for (const auto& m : meshes) {
    for (const auto& nb : m.neighbors()) {
      const auto& other = meshes[nb.rank];
      const auto back = std::find_if(other.neighbors().begin(), other.neighbors().end(),
                                     [&](const Neighbor& o) { return o.rank == m.rank(); });
      REQUIRE(back != other.neighbors().end());
      REQUIRE(back->face_count == nb.face_count);
      for (int i = 0; i < nb.face_count; ++i) {
        const auto& a = m.mpi_faces()[nb.first_face + i];
        const auto& b = other.mpi_faces()[back->first_face + i];
        CHECK(a.id == b.id);
        CHECK(a.is_minus != b.is_minus);
        CHECK(a.neighbor_rank == nb.rank);
      }
    }
  }
}

}  // namespace

TEST_CASE("partition covers every element exactly once on 1..8 ranks", "[mesh]") {
  for (int nranks = 1; nranks <= 8; ++nranks) {
    check_partition({7, 4, 5}, {true, true, false}, nranks);
    check_partition({8, 3, 2}, {false, true, true}, nranks);
  }
  check_partition({2, 2, 2}, {true, true, true}, 8);  // one element per rank
  check_partition({2, 1, 1}, {true, true, true}, 2);  // both x faces join the same pair
}

TEST_CASE("partition picks the least loaded, least cut rank grid", "[mesh]") {
  CHECK(CartesianPartition::choose({64, 2, 2}, 4).ranks() == std::array<int, 3>{4, 1, 1});
  CHECK(CartesianPartition::choose({8, 8, 8}, 8).ranks() == std::array<int, 3>{2, 2, 2});
  CHECK(CartesianPartition::choose({10, 1, 10}, 2).ranks() == std::array<int, 3>{2, 1, 1});
  const auto p = CartesianPartition::choose({7, 1, 1}, 3);
  CHECK(p.block_begin(0, 0) == 0);
  CHECK(p.block_begin(0, 1) == 3);
  CHECK(p.block_begin(0, 2) == 5);
  CHECK(p.block_begin(0, 3) == 7);
  CHECK(p.block_of(0, 2) == 0);
  CHECK(p.block_of(0, 3) == 1);
  CHECK(p.block_of(0, 6) == 2);
}

TEST_CASE("impossible partitions are input errors", "[mesh]") {
  CHECK_THROWS_AS(CartesianPartition::choose({2, 2, 2}, 9), squall::InputError);
  CHECK_THROWS_WITH(CartesianPartition::choose({2, 2, 2}, 9), Catch::Contains("fewer than the 9 ranks"));
  CHECK_THROWS_WITH(CartesianPartition::choose({2, 2, 2}, 7), Catch::Contains("7 Cartesian blocks"));
}
