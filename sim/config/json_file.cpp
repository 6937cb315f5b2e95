#include "sim/config/json_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "sim/config/embedded.hpp"
#include "sim/config/json_limits.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/suggest.hpp"

namespace iowall {

const EmbeddedFile* find_embedded(const std::string& path) {
  for (const EmbeddedFile& f : embedded_files()) {
    const std::string p = f.path;
    if (p == path) return &f;
    if (p.size() > path.size() && p.compare(p.size() - path.size(), path.size(), path) == 0 &&
        p[p.size() - path.size() - 1] == '/')
      return &f;
  }
  return nullptr;
}

namespace {
// "line L, column C" of the byte at `offset` (0-based), for a person to find it.
std::string line_column(const std::string& text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return fmt::format("line {}, column {}", line, col);
}

const char* file_type_name(std::filesystem::file_type t) {
  switch (t) {
    case std::filesystem::file_type::character: return "character device";
    case std::filesystem::file_type::block: return "block device";
    case std::filesystem::file_type::socket: return "socket";
    default: return "special file";
  }
}

// The whole of a file or pipe, refused past kMaxJsonBytes: a pipe has no size to check first,
// and a 20,000-device topology (scripts/replicate-topology.py) is 3.1 MB. read(2) itself, not a
// stream: a pipe whose writer is slow blocks here, and Ctrl-C must end that wait (the interrupt
// guard's handler makes read return EINTR; a std::ifstream would retry it and wait on).
constexpr std::size_t kMaxJsonBytes = std::size_t{1} << 30;

std::string read_whole(const std::filesystem::path& file, const std::string& path) {
  int fd;
  while ((fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR) throw_if_interrupted();
  if (fd < 0) throw InputError(path, "", "cannot be read (permission denied?)");
  const std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* f) { ::close(*f); });
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) return text;
    if (n < 0) {
      if (errno != EINTR) throw InputError(path, "", fmt::format("cannot be read ({})", std::strerror(errno)));
      throw_if_interrupted();
      continue;
    }
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxJsonBytes)
      throw InputError(path, "", fmt::format("longer than {} bytes: not a scenario, topology or profile", kMaxJsonBytes));
  }
}

// A pipe gives its bytes once, but a command may load the same input again (each sweep point,
// each of `plan --node`'s runs builds its scenario anew): the first read's text is kept, by path,
// for the rest of the process.
std::string read_pipe_once(const std::filesystem::path& file, const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> texts;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto it = texts.find(file.string());
  if (it != texts.end()) return it->second;
  return texts.emplace(file.string(), read_whole(file, path)).first->second;
}

}  // namespace

JsonDocument parse_json_text(const std::string& text, const std::string& name) {
  JsonDocument doc;
  doc.name = name;
  try {
    if (const auto bad = parse_json_checked(text, doc.json)) throw InputError(name, bad->pointer, bad->message);
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    const auto pos = what.find("parse error");
    if (pos != std::string::npos) what = what.substr(pos);
    throw InputError(name, "", fmt::format("{}: malformed JSON ({})", line_column(text, e.byte ? e.byte - 1 : 0), what));
  } catch (const Json::out_of_range& e) {
    // A number too large for a double ("1e400"): the message quotes it, so find it.
    std::string what = e.what();
    const auto pos = what.find("number overflow");
    if (pos != std::string::npos) what = what.substr(pos);
    const auto open = what.find('\''), close = what.rfind('\'');
    const std::size_t at = open != std::string::npos && close > open
                               ? text.find(what.substr(open + 1, close - open - 1))
                               : std::string::npos;
    throw InputError(name, "",
                     fmt::format("{}malformed JSON ({}: a number must fit a double)",
                                 at == std::string::npos ? "" : line_column(text, at) + ": ", what));
  }
  return doc;
}

JsonDocument load_json(const std::string& path, const std::string& relative_to) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  const fs::path p(path);
  if (p.is_relative() && !relative_to.empty()) candidates.push_back(fs::path(relative_to) / p);
  candidates.push_back(p);
  // A name without an extension is also looked for as NAME.json ("dgx-h100").
  const bool bare = !p.has_extension() && !path.empty() && path.back() != '/';
  if (bare)
    for (std::size_t i = 0, n = candidates.size(); i < n; ++i) candidates.push_back(fs::path(candidates[i]) += ".json");
  for (const fs::path& c : candidates) {
    std::error_code ec;
    const fs::file_type type = fs::status(c, ec).type();
    if (type == fs::file_type::not_found || type == fs::file_type::none) continue;
    if (type == fs::file_type::directory) throw InputError(path, "", "is a directory, expected a JSON file");
    // A pipe is read to its end (a shell's process substitution, `<(jq ... f.json)`); a device,
    // a socket or anything else is refused rather than read: /dev/zero would never end.
    if (type != fs::file_type::regular && type != fs::file_type::fifo)
      throw InputError(path, "", fmt::format("is a {}, expected a JSON file", file_type_name(type)));
    JsonDocument doc = parse_json_text(type == fs::file_type::fifo ? read_pipe_once(c, path) : read_whole(c, path), path);
    doc.directory = c.parent_path().string();
    return doc;
  }
  if (const EmbeddedFile* e = find_embedded(path)) return parse_json_text(e->content, path);
  if (bare)
    if (const EmbeddedFile* e = find_embedded(path + ".json")) return parse_json_text(e->content, path);
  // A misspelled shipped name: the close ones, as `topo list` names them.
  std::vector<std::string> shipped;
  for (const EmbeddedFile& f : embedded_files()) shipped.push_back(fs::path(f.path).stem().string());
  throw InputError(path, "", "no such file" + did_you_mean(fs::path(path).stem().string(), shipped));
}

void apply_override(Json& doc, const std::string& assignment, const std::string& where) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(where, "--set", fmt::format("\"{}\" is not POINTER=VALUE (e.g. /workload/io_size=\"1 MiB\")", quote_text(assignment, 60)));
  const std::string pointer = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  // Errors about the value or the place name the pointer being set (cut short) and --set.
  const std::string at = quote_text(pointer, 80);
  if (text.size() > JsonLimits{}.max_string)
    throw InputError(where, at, fmt::format("--set: a value of {} bytes is longer than the limit of {}", text.size(),
                                                 JsonLimits{}.max_string));
  Json value;
  std::optional<JsonLimitError> bad;
  try {
    bad = parse_json_checked(text, value);
  } catch (const Json::exception&) {  // not JSON, or a number beyond a double
    value = text;  // `--set /workload/io_size=1 MiB` means the string "1 MiB"
  }
  if (bad) throw InputError(where, quote_text(pointer + bad->pointer, 120), "--set: " + bad->message);
  try {
    const Json::json_pointer ptr(pointer);
    for (std::size_t from = 1; from <= pointer.size();) {
      const std::size_t to = std::min(pointer.find('/', from), pointer.size());
      if (to - from > JsonLimits{}.max_key)
        throw InputError(where, "--set", fmt::format("{}: a key of {} bytes is longer than the limit of {}",
                                                     quote_text(pointer, 60), to - from, JsonLimits{}.max_key));
      from = to + 1;
    }
    if (!ptr.empty()) {
      const Json::json_pointer parent = ptr.parent_pointer();
      if (!doc.contains(parent) || !(doc[parent].is_object() || doc[parent].is_array()))
        throw InputError(where, at, fmt::format("--set: {} does not exist in the scenario", quote_text(parent.to_string(), 60)));
      // An array grows by at most one element (its end, or "-"): an index far past the
      // end would fill every element between with null.
      const Json& container = doc[parent];
      const std::string last = ptr.back();
      if (container.is_array() && last != "-") {
        const bool digits = !last.empty() && last.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || last.size() > 18 || std::stoull(last) > container.size())
          throw InputError(where, quote_text(parent.to_string(), 80),
                           fmt::format("--set: {} is not an index of {} (it has {} items; {} or \"-\" appends one)",
                                       quote_text(last, 30), quote_text(parent.to_string(), 60), container.size(),
                                       container.size()));
      }
    }
    doc[ptr] = value;
  } catch (const Json::exception& e) {
    throw InputError(where, "--set", fmt::format("\"{}\" is not a JSON pointer into the scenario ({})", quote_text(pointer, 60), quote_text(e.what(), 100)));
  }
}

}  // namespace iowall
