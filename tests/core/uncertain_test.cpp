// Quantities with their uncertainty: the four forms, their quantiles, and the bad ones.
#include <catch2/catch.hpp>

#include "sim/core/uncertain.hpp"

using namespace iowall;

TEST_CASE("uncertain quantities: forms and quantiles", "[core][uncertainty]") {
  Uncertain u;
  REQUIRE(parse_uncertain("14 GB/s +- 5%", QuantityKind::bandwidth, u).ok);
  CHECK(u.spread == Spread::normal);
  CHECK(u.nominal == 112'000'000'000);
  CHECK(u.sd == Approx(0.05 * 112e9));
  CHECK(u.quantile(0.5) == Approx(112e9));
  CHECK(u.quantile(0.95) == Approx(112e9 * (1 + 0.05 * 1.6449)).epsilon(1e-3));
  CHECK(u.value_at(0.05) < u.nominal);

  REQUIRE(parse_uncertain("60 us \xC2\xB1 10 us", QuantityKind::time, u).ok);
  CHECK(u.spread == Spread::normal);
  CHECK(u.sd == Approx(10e6));

  REQUIRE(parse_uncertain("92 us .. 150 us", QuantityKind::time, u).ok);
  CHECK(u.spread == Spread::uniform);
  CHECK(u.nominal == 121'000'000);
  CHECK(u.quantile(0.25) == Approx(92e6 + 0.25 * 58e6));

  REQUIRE(parse_uncertain("121 us (92 us .. 150 us)", QuantityKind::time, u).ok);
  CHECK(u.spread == Spread::triangular);
  CHECK(u.quantile(0) == Approx(92e6));
  CHECK(u.quantile(1) == Approx(150e6));
  CHECK(u.quantile(0.5) == Approx(121e6));  // a symmetric triangle's median is its mode

  REQUIRE(parse_uncertain("4 KiB", QuantityKind::bytes, u).ok);
  CHECK(u.spread == Spread::none);
  CHECK(u.value_at(0.9) == 4096);

  CHECK(has_uncertainty("1 GB/s +- 1%"));
  CHECK(has_uncertainty("1 us .. 2 us"));
  CHECK_FALSE(has_uncertainty("1 GB/s"));
  CHECK(quantity_kind_of("13 GB/s (13 GB/s .. 14 GB/s)") == QuantityKind::bandwidth);
  CHECK_FALSE(quantity_kind_of("../topology.json .. x"));
  CHECK(quantity_display(QuantityKind::bandwidth, 104'202'564'524) == "13.03 GB/s");
  CHECK(quantity_display(QuantityKind::time, 121'000'000) == "121 us");
}

TEST_CASE("uncertain quantities: bad spreads say what is wrong", "[core][uncertainty]") {
  Uncertain u;
  const auto error = [&](const char* text, QuantityKind k) {
    const ParseResult r = parse_uncertain(text, k, u);
    CHECK_FALSE(r.ok);
    return r.error;
  };
  CHECK_THAT(error("14 GB/s +- 120%", QuantityKind::bandwidth), Catch::Contains("as wide as the value or wider"));
  CHECK_THAT(error("60 us +- 60 us", QuantityKind::time), Catch::Contains("as wide as the value or wider"));
  CHECK_THAT(error("14 GB/s +- -5%", QuantityKind::bandwidth), Catch::Contains("must not be negative"));
  CHECK_THAT(error("60 us +- -1 us", QuantityKind::time), Catch::Contains("must not be negative"));
  CHECK_THAT(error("150 us .. 92 us", QuantityKind::time), Catch::Contains("above its high end"));
  CHECK_THAT(error("200 us (92 us .. 150 us)", QuantityKind::time), Catch::Contains("outside its range"));
  CHECK_THAT(error("14 GB/s +-", QuantityKind::bandwidth), Catch::Contains("missing"));
  CHECK_THAT(error("14 GB/s +- lots", QuantityKind::bandwidth), Catch::Contains("spread"));
  CHECK_THAT(error("0 GB/s .. 1 GB/s", QuantityKind::bandwidth), Catch::Contains("more than 0"));
}
