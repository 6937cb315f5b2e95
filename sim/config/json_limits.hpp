// Reading untrusted JSON text with limits checked while it is parsed, before anything
// recursive (schema validation, regular expressions, error messages that walk the
// document) sees it: nesting depth, string and key length, array and object size, and
// duplicate keys (RFC 8259 leaves them undefined; a later value silently winning hides
// a mistake). The parse itself is nlohmann's SAX parser, which does not recurse.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/core/quote.hpp"

namespace iowall {

struct JsonLimits {
  std::size_t max_depth = 128;            // scenarios and topologies nest fewer than 10 levels
  std::size_t max_string = 64 * 1024;     // bytes of one string value
  std::size_t max_key = 256;              // bytes of one object key
  std::size_t max_items = 4'000'000;      // entries of one array or object
};

// Where parsing stopped and why: a JSON pointer (as far as the parser got) and a message.
struct JsonLimitError {
  std::string pointer;
  std::string message;
};

// Parses `text` into `out`. Returns the limit that was broken, if one was; throws
// nlohmann's parse_error or out_of_range for malformed text, as Json::parse does.
std::optional<JsonLimitError> parse_json_checked(const std::string& text, nlohmann::json& out,
                                                 const JsonLimits& limits = {});

}  // namespace iowall
