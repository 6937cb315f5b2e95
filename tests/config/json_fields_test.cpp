// The one reader of JSON fields (sim/config/json_fields.hpp) that result files, cluster
// descriptions and plan settings go through: every error names the file and the field's
// JSON pointer (escaped), or the flag or FILE#pointer a plan setting came from.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "sim/config/json_fields.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using nlohmann::json;

namespace {
// The "file: pointer: message" of the InputError `f` throws (empty when none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.where() + "|" + e.pointer() + "|" + e.message();
  }
  return "";
}
}  // namespace

TEST_CASE("result-file reads: fallbacks, NaN as null, terse errors at the escaped pointer", "[config][json_fields]") {
  const json j = {{"a", 1.5}, {"n", nullptr}, {"s", "x"}, {"i", -3}, {"u", 7}, {"a/b~c", "oops"}};
  const JsonFields f(j, "r.json", "/metrics");
  CHECK(f.number("a") == 1.5);
  CHECK(std::isnan(f.number("n")));
  CHECK(f.number("absent", 4.0) == 4.0);
  CHECK(f.integer("i") == -3);
  CHECK(f.unsigned_integer("u") == 7);
  CHECK(f.text("s") == "x");
  CHECK(f.text("absent", "d") == "d");
  CHECK(f.pointer("a/b~c") == "/metrics/a~1b~0c");
  CHECK(error_of([&] { f.number("a/b~c"); }) == "r.json|/metrics/a~1b~0c|not a number");
  CHECK(error_of([&] { f.unsigned_integer("i"); }) == "r.json|/metrics/i|not a non-negative integer");
  CHECK(error_of([&] { (void)JsonFields(json::array(), "r.json", "/x"); }) == "r.json|/x|not an object");
}

TEST_CASE("input reads: unknown and required keys, quoted values, quantities with units", "[config][json_fields]") {
  const json j = {{"kind", 3}, {"count", 5000}, {"link", 400}, {"nic", "100 Gb/s"}, {"zero", "0 GB/s"}, {"x", 0.5}};
  const JsonFields f(j, "c.json", "/fabric", "must be an object");
  CHECK(error_of([&] { f.only({"kind", "count", "link", "nic", "zero"}); }) ==
        "c.json|/fabric/x|unknown key \"x\" (expected count, kind, link, nic, zero)");
  CHECK(error_of([&] { f.required("missing"); }) == "c.json|/fabric|\"missing\" is required");
  CHECK(error_of([&] { f.required_text("kind"); }) == "c.json|/fabric/kind|3 is not text");
  CHECK(error_of([&] { f.integer_in("count", 1, 4096); }) == "c.json|/fabric/count|5000 is not an integer from 1 to 4096");
  CHECK(error_of([&] { f.number_at_least("x", 1); }) == "c.json|/fabric/x|0.5 is not a number of at least 1");
  CHECK(error_of([&] { f.positive_bandwidth("link", "400 Gb/s"); }) ==
        "c.json|/fabric/link|400 is a bare number: give it with its unit (\"400 Gb/s\")");
  CHECK(error_of([&] { f.positive_bandwidth("link"); }) == "c.json|/fabric/link|400 is a bare number: give it with its unit");
  CHECK(error_of([&] { f.positive_bandwidth("zero"); }) == "c.json|/fabric/zero|must be positive");
  CHECK(f.positive_bandwidth("nic") == 12.5e9);
  CHECK(f.quantity<Bandwidth>("nic", parse_bandwidth) == Bandwidth::Gbps(100));
  CHECK(f.integer_in("count", 1, 8192) == 5000);
}

TEST_CASE("flat settings: each error at the flag or FILE#pointer its key came from", "[config][json_fields]") {
  const json s = {{"storage_bw", 5}, {"gpus", "many"}, {"other", true}};
  const std::map<std::string, std::string> origin = {{"storage_bw", "--storage-bw"}, {"gpus", "plan.json#/plan/gpus"}};
  const JsonFields f(s, origin);
  CHECK(error_of([&] { f.positive_bandwidth("storage_bw"); }) == "|--storage-bw|5 is a bare number: give it with its unit");
  CHECK(error_of([&] { f.fail("gpus", "bad"); }) == "plan.json|/plan/gpus|bad");
  CHECK(error_of([&] { f.fail("other", "bad"); }) == "|--other|bad");
}
