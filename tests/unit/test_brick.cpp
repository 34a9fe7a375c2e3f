// Brick connectivity: every face of every element finds the right neighbour on the
// right side, with the right orientation, in periodic and walled bricks.
#include <catch2/catch.hpp>
#include <map>

#include "mesh/brick.hpp"

using namespace squall::mesh;

namespace {

Brick make(std::array<int, 3> n, std::array<bool, 3> periodic) {
  return Brick(n, {{{0.0, 3.0}, {0.0, 2.0}, {-1.0, 1.0}}}, periodic);
}

/// Checks every (element, local face) of `b` against the neighbour computed directly
/// from coordinates.
void check_connectivity(const Brick& b) {
  const auto n = b.elements();
  std::map<int, int> seen;  // face id -> how many element faces point at it
  for (int e = 0; e < b.element_count(); ++e) {
    const auto c = b.element_coords(e);
    REQUIRE(b.element_id(c[0], c[1], c[2]) == e);
    for (int lf = 0; lf < 6; ++lf) {
      const int d = face_direction(lf);
      const bool high = face_is_high(lf);
      const int id = b.face_of_element(e, lf);
      REQUIRE(id >= 0);
      REQUIRE(id < b.face_count());
      ++seen[id];
      const GlobalFace f = b.face(id);
      CHECK(f.id == id);
      CHECK(f.direction == d);
      // This element is the minus side of its high faces and the plus side of its low ones.
      CHECK((high ? f.element_minus : f.element_plus) == e);
      auto nc = c;
      nc[d] += high ? 1 : -1;
      const bool outside = nc[d] < 0 || nc[d] >= n[d];
      const int other = high ? f.element_plus : f.element_minus;
      if (outside && !b.periodic()[d]) {
        CHECK(other == -1);
        CHECK(f.wall == lf);
      } else {
        nc[d] = (nc[d] + n[d]) % n[d];
        CHECK(other == b.element_id(nc[0], nc[1], nc[2]));
        CHECK(f.wall == -1);
        // Orientation: the neighbour sees the same face as its opposite local face.
        CHECK(b.face_of_element(other, high ? lf - 1 : lf + 1) == id);
        // The tangential coordinates agree, so face nodes meet in the same order.
        for (int t = 0; t < 3; ++t)
          if (t != d) CHECK(b.element_coords(other)[t] == c[t]);
      }
    }
  }
  // Interior faces are shared by two element faces, wall faces belong to one.
  CHECK(static_cast<int>(seen.size()) == b.face_count());
  for (const auto& [id, count] : seen) CHECK(count == (b.face(id).wall >= 0 ? 1 : 2));
}

}  // namespace

TEST_CASE("periodic 3x2x2 brick", "[mesh]") {
  const Brick b = make({3, 2, 2}, {true, true, true});
  CHECK(b.element_count() == 12);
  CHECK(b.face_count() == 3 * 12);  // every element owns its three high faces
  check_connectivity(b);
  // The wrap-around x face of element (2, 1, 1) joins it (minus) to (0, 1, 1) (plus).
  const GlobalFace f = b.face(b.face_of_element(b.element_id(2, 1, 1), x_high));
  CHECK(f.element_minus == b.element_id(2, 1, 1));
  CHECK(f.element_plus == b.element_id(0, 1, 1));
}

TEST_CASE("walled 3x2x2 brick", "[mesh]") {
  const Brick b = make({3, 2, 2}, {false, false, false});
  CHECK(b.face_count() == 4 * 4 + 3 * 6 + 3 * 6);
  check_connectivity(b);
  int walls[6] = {0, 0, 0, 0, 0, 0};
  for (int id = 0; id < b.face_count(); ++id)
    if (b.face(id).wall >= 0) ++walls[b.face(id).wall];
  CHECK(walls[x_low] == 4);
  CHECK(walls[x_high] == 4);
  CHECK(walls[y_low] == 6);
  CHECK(walls[z_high] == 6);
}

TEST_CASE("mixed periodicity and single-element directions", "[mesh]") {
  check_connectivity(make({3, 2, 2}, {true, false, true}));
  check_connectivity(make({1, 1, 4}, {true, true, false}));  // an element is its own x neighbour
  check_connectivity(make({1, 3, 1}, {false, true, false}));
}

TEST_CASE("element sizes follow the domain", "[mesh]") {
  const Brick b = make({3, 2, 4}, {true, true, false});
  CHECK(b.element_size(0, 0) == Approx(1.0));
  CHECK(b.element_size(1, 1) == Approx(1.0));
  CHECK(b.element_size(2, 3) == Approx(0.5));
  CHECK(b.uniform(2));
  CHECK(b.smallest_element_size(2) == Approx(0.5));
  // lo + (c + t) h, the formula of equal elements
  CHECK(b.node_position(2, 1, 0.25) == -1.0 + (1 + 0.25) * 0.5);
}

TEST_CASE("element layers of different heights along z", "[mesh]") {
  const std::vector<double> faces{-1.0, -0.9, -0.7, 0.1, 1.0};
  const Brick b({3, 2, 4}, {{{0.0, 3.0}, {0.0, 2.0}, {-1.0, 1.0}}}, {true, true, false}, faces);
  CHECK(!b.uniform(2));
  CHECK(b.uniform(0));
  CHECK(b.element_size(2, 0) == Approx(0.1));
  CHECK(b.element_size(2, 2) == Approx(0.8));
  CHECK(b.smallest_element_size(2) == Approx(0.1));
  CHECK(b.element_size(0, 2) == Approx(1.0));
  // Both elements of a face compute its height exactly, and the points in between ascend.
  for (int c = 0; c < 4; ++c) {
    CHECK(b.node_position(2, c, 0.0) == faces[c]);
    CHECK(b.node_position(2, c, 1.0) == faces[c + 1]);
    CHECK(b.node_position(2, c, 0.5) == Approx((faces[c] + faces[c + 1]) / 2));
  }
  check_connectivity(b);
  // Faces that do not match the domain or the element count, or do not ascend, are refused.
  const auto bad = [](std::vector<double> z) {
    return Brick({1, 1, 2}, {{{0.0, 1.0}, {0.0, 1.0}, {0.0, 1.0}}}, {true, true, false}, z);
  };
  CHECK_THROWS(bad({0.0, 1.0}));
  CHECK_THROWS(bad({0.0, 0.5, 0.9}));
  CHECK_THROWS(bad({0.0, 1.2, 1.0}));
  CHECK_NOTHROW(bad({0.0, 0.3, 1.0}));
}
