// The summary.json writer: valid JSON, ordered keys, round-trip precision, no NaN.
#include <catch2/catch.hpp>
#include <cmath>

#include "io/json.hpp"

using squall::io::Json;

TEST_CASE("json output", "[io]") {
  Json j = Json::object();
  j.set("b", 1);
  j.set("a", "x\"y\n");
  j.set("pi", 3.141592653589793);
  j.set("bad", std::nan(""));
  j.set("list", Json::array().push(1).push(2.5));
  j.set("b", 2);  // replaced in place
  Json inner = Json::object();
  inner.set("ok", true);
  j.set("inner", inner);
  CHECK(j.dump() ==
        "{\n"
        "  \"b\": 2,\n"
        "  \"a\": \"x\\\"y\\n\",\n"
        "  \"pi\": 3.1415926535897931,\n"
        "  \"bad\": null,\n"
        "  \"list\": [1, 2.5],\n"
        "  \"inner\": {\n"
        "    \"ok\": true\n"
        "  }\n"
        "}\n");
}
