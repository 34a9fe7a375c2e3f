// Config reader: defaults, overrides, and errors that name file:line, key and expectation.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "io/config_keys.hpp"
#include "io/config_reader.hpp"

using squall::InputError;
using squall::io::parse_config;

namespace {
squall::Config parse(const std::string& text, std::vector<std::string> overrides = {}) {
  return parse_config(text, "case.toml", overrides);
}
}  // namespace

TEST_CASE("an empty config takes every default", "[config]") {
  const auto c = parse("[case]\n");
  CHECK(c.case_.name == "rising_bubble");
  CHECK(c.mesh.elements == std::array<int, 3>{8, 1, 8});
  CHECK(c.mesh.periodic == std::array<bool, 3>{true, true, false});
  CHECK(c.mesh.domain[2][1] == 1000.0);
  CHECK(c.dg.order == 4);
  CHECK(c.time.integrator == "lsrk54");
  CHECK(c.time.cfl == 0.3);
  CHECK(c.time.max_steps == 0);
  CHECK(squall::io::resolved_output_dir(c) == "output/rising_bubble");
}

TEST_CASE("every catalogued default parses and validates", "[config]") {
  for (const auto& key : squall::io::config_keys()) {
    INFO(squall::io::full_name(key));
    CHECK_NOTHROW(parse("[case]", {squall::io::full_name(key) + "=" + key.default_toml}));
  }
}

TEST_CASE("values from the file and from --set", "[config]") {
  const std::string text = R"(
[case]
name = "rest_atmosphere"
[mesh]
elements = [4, 2, 3]
domain = [[-1, 1], [0, 2.5], [0, 10]]
periodic = [false, true, false]
[dg]
order = 3
[time]
end_time = 10
cfl = 0.8
integrator = "ssprk33"
[output]
dir = "out/here"
)";
  const auto c = parse(text);
  CHECK(c.case_.name == "rest_atmosphere");
  CHECK(c.mesh.elements == std::array<int, 3>{4, 2, 3});
  CHECK(c.mesh.domain[0][0] == -1.0);  // integers are accepted where numbers are expected
  CHECK(c.mesh.periodic[0] == false);
  CHECK(c.time.end_time == 10.0);
  CHECK(c.time.integrator == "ssprk33");
  CHECK(squall::io::resolved_output_dir(c) == "out/here");

  const auto o = parse(text, {"dg.order=5", "time.integrator=lsrk54", "mesh.elements=[1,1,1]",
                              "output.dir = \"x y\"", "case.name=rising_bubble"});
  CHECK(o.dg.order == 5);
  CHECK(o.time.integrator == "lsrk54");  // a bare word is a string
  CHECK(o.mesh.elements == std::array<int, 3>{1, 1, 1});
  CHECK(o.output.dir == "x y");
  CHECK(o.case_.name == "rising_bubble");
  CHECK(parse(text, {"dg.order=2", "dg.order=6"}).dg.order == 6);  // the last one wins
}

TEST_CASE("errors name the file, line, key and expectation", "[config]") {
  CHECK_THROWS_WITH(parse("[dg]\norder = 9\n"),
                    Catch::Contains("case.toml:2") && Catch::Contains("'dg.order' = 9") &&
                        Catch::Contains("expected an integer in 1..8"));
  CHECK_THROWS_WITH(parse("[dg]\norder = \"four\"\n"), Catch::Contains("(a string)"));
  CHECK_THROWS_WITH(parse("[dg]\norder = 2.5\n"), Catch::Contains("'dg.order'"));
  CHECK_THROWS_WITH(parse("[mesh]\nelemnts = [1, 1, 1]\n"),
                    Catch::Contains("case.toml:2") && Catch::Contains("unknown key 'mesh.elemnts'") &&
                        Catch::Contains("did you mean 'mesh.elements'"));
  CHECK_THROWS_WITH(parse("[meshes]\n"), Catch::Contains("unknown section [meshes]"));
  CHECK_THROWS_WITH(parse("order = 3\n"), Catch::Contains("unknown key 'order'"));
  CHECK_THROWS_WITH(parse("[mesh]\nelements = [0, 1, 1]\n"), Catch::Contains("'mesh.elements'"));
  CHECK_THROWS_WITH(parse("[mesh]\nelements = [2, 2]\n"), Catch::Contains("three integers"));
  CHECK_THROWS_WITH(parse("[mesh]\ndomain = [[0, 1], [1, 0], [0, 1]]\n"),
                    Catch::Contains("direction y is empty or inverted"));
  CHECK_THROWS_WITH(parse("[mesh]\ndomain = [[0, 1], [0, 1], [0, 0]]\n"),
                    Catch::Contains("direction z is empty or inverted"));
  CHECK_THROWS_WITH(parse("[mesh]\nperiodic = [1, 0, 1]\n"), Catch::Contains("three booleans"));
  CHECK_THROWS_WITH(parse("[time]\nend_time = -1.0\n"), Catch::Contains("'time.end_time'"));
  CHECK_THROWS_WITH(parse("[time]\nend_time = inf\n"), Catch::Contains("'time.end_time'"));
  CHECK_THROWS_WITH(parse("[time]\nmax_steps = -3\n"), Catch::Contains("'time.max_steps'"));
  CHECK_THROWS_WITH(parse("[time]\ncfl = 0\n"), Catch::Contains("a number in (0, 10]"));
  CHECK_THROWS_WITH(parse("[time]\nintegrator = \"euler\"\n"), Catch::Contains("\"lsrk54\""));
  CHECK_THROWS_WITH(parse("[output]\ninterval = -5\n"), Catch::Contains("'output.interval'"));
  CHECK_THROWS_WITH(parse("[dg\norder = 3\n"), Catch::Contains("case.toml:1") && Catch::Contains("not valid TOML"));
  CHECK_THROWS_WITH(parse("[mesh]\nelements = [100000, 100000, 100000]\n"),
                    Catch::Contains("268435456"));
  CHECK_THROWS_AS(parse("[dg]\norder = 0\n"), InputError);
}

TEST_CASE("an empty file is refused, a known case name is required when a list is given", "[config]") {
  CHECK_THROWS_WITH(parse(""), Catch::Contains("case.toml: the config is empty"));
  CHECK_THROWS_WITH(parse("# just a comment\n"), Catch::Contains("the config is empty"));
  const std::vector<std::string> known{"a", "b"};
  CHECK(parse_config("[case]\nname = \"b\"\n", "f.toml", {}, known).case_.name == "b");
  CHECK_THROWS_WITH(parse_config("[case]\nname = \"c\"\n", "f.toml", {}, known),
                    Catch::Contains("f.toml:2: 'case.name' = \"c\": no such case; built-in cases: a, b"));
  CHECK_THROWS_WITH(parse_config("[case]\n", "f.toml", {"case.name=z"}, known),
                    Catch::StartsWith("--set case.name=z: 'case.name'"));
}

TEST_CASE("--set errors name the argument", "[config]") {
  CHECK_THROWS_WITH(parse("[case]", {"dg.order=9"}), Catch::StartsWith("--set dg.order=9:"));
  CHECK_THROWS_WITH(parse("[case]", {"dg.order"}), Catch::Contains("expected section.key=value"));
  CHECK_THROWS_WITH(parse("[case]", {"order=3"}), Catch::Contains("expected section.key=value"));
  CHECK_THROWS_WITH(parse("[case]", {"dg.ordr=3"}), Catch::Contains("did you mean 'dg.order'"));
  CHECK_THROWS_WITH(parse("[case]", {"dg.order="}), Catch::Contains("empty value"));
  CHECK_THROWS_WITH(parse("[case]", {"mesh.periodic=[true,true]"}), Catch::Contains("three booleans"));
}
