#include "sim/config/json_limits.hpp"

#include <unordered_set>
#include <vector>

#include <fmt/format.h>

namespace iowall {

namespace {

using Json = nlohmann::json;

// Forwards every event to nlohmann's DOM builder after checking it against the limits;
// keeps the path from the root so that a broken limit is reported at its JSON pointer.
class CheckedSax {
public:
  CheckedSax(Json& out, const JsonLimits& limits) : dom_(out, true), limits_(limits) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool v) { return value() && dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return value() && dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const Json::string_t& s) { return value() && dom_.number_float(v, s); }
  bool string(Json::string_t& v) {
    if (v.size() > limits_.max_string)
      return fail(fmt::format("a string of {} bytes is longer than the limit of {}", v.size(), limits_.max_string));
    return value() && dom_.string(v);
  }
  bool binary(Json::binary_t& v) { return value() && dom_.binary(v); }
  bool start_object(std::size_t n) {
    if (!value() || !open()) return false;
    frames_.push_back(Frame{true, {}, 0, {}});
    return dom_.start_object(n);
  }
  bool key(Json::string_t& k) {
    Frame& f = frames_.back();
    if (k.size() > limits_.max_key)
      return fail(fmt::format("a key of {} bytes is longer than the limit of {}", k.size(), limits_.max_key));
    f.key = k;
    if (!f.keys.insert(k).second) return fail(fmt::format("duplicate key \"{}\"", k));
    if (f.keys.size() > limits_.max_items)
      return fail(fmt::format("an object with more than {} keys", limits_.max_items));
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    if (!value() || !open()) return false;
    frames_.push_back(Frame{false, {}, 0, {}});
    return dom_.start_array(n);
  }
  bool end_array() {
    frames_.pop_back();
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t pos, const std::string& token, const Exception& e) {
    return dom_.parse_error(pos, token, e);  // throws, as Json::parse does
  }

  const std::optional<JsonLimitError>& error() const { return error_; }

private:
  struct Frame {
    bool object;
    std::string key;      // the current member's key (objects)
    std::size_t index;    // the next element's index (arrays)
    std::unordered_set<std::string> keys;
  };

  // A value begins inside the innermost container: count it (arrays) and check size.
  bool value() {
    if (frames_.empty()) return true;
    Frame& f = frames_.back();
    if (!f.object) {
      ++f.index;
      if (f.index > limits_.max_items) return fail(fmt::format("an array with more than {} items", limits_.max_items));
    }
    return true;
  }
  bool open() {
    if (frames_.size() + 1 > limits_.max_depth)
      return fail(fmt::format("nested deeper than {} levels", limits_.max_depth));
    return true;
  }
  std::string pointer() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (p.size() > 200) return p + "/...";
      if (f.object) {
        std::string k;
        for (char c : f.key) k += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
        p += "/" + quote_key(k);
      } else {
        p += "/" + std::to_string(f.index == 0 ? 0 : f.index - 1);
      }
    }
    return p;
  }
  static std::string quote_key(const std::string& k) { return k.size() > 60 ? k.substr(0, 60) + "..." : k; }
  bool fail(std::string message) {
    error_ = JsonLimitError{pointer(), std::move(message)};
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  const JsonLimits& limits_;
  std::vector<Frame> frames_;
  std::optional<JsonLimitError> error_;
};

}  // namespace

std::optional<JsonLimitError> parse_json_checked(const std::string& text, Json& out, const JsonLimits& limits) {
  CheckedSax sax(out, limits);
  Json::sax_parse(text, &sax);
  if (sax.error()) out = Json();  // a partial document is never used
  return sax.error();
}

}  // namespace iowall
