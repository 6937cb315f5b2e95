// Reading JSON documents from files or from the embedded copies, with errors that
// name the file (and the line and column for a syntax error).
#pragma once
#include <string>

#include "sim/core/params.hpp"

namespace iowall {

struct JsonDocument {
  Json json;
  std::string name;       // as the user gave it, for messages
  std::string directory;  // for resolving relative references ("" for embedded)
};

// Loads `path`: a file on disk, else an embedded file of the same path. `relative_to`
// is tried first for relative paths (the directory of the referring file).
JsonDocument load_json(const std::string& path, const std::string& relative_to = {});
JsonDocument parse_json_text(const std::string& text, const std::string& name);

// Applies `pointer=value` overrides (value parsed as JSON, else taken as a string).
void apply_override(Json& doc, const std::string& assignment, const std::string& where);

}  // namespace iowall
