// Values quoted in error messages, cut short: an error names what was wrong in one
// line, so a 100 MB array or a 60,000-character id is described, not echoed.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace iowall {

// A value for an error message: its JSON text, cut to about `max` characters.
std::string quote_json(const nlohmann::json& v, std::size_t max = 100);
// Text for an error message, cut to about `max` characters (the cut is marked).
std::string quote_text(const std::string& s, std::size_t max = 100);

}  // namespace iowall
