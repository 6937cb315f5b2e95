// Scenario and topology files compiled into the binary (see embed.cmake).
#pragma once
#include <string>
#include <vector>

namespace iowall {

struct EmbeddedFile {
  const char* path;
  const char* content;
};
const std::vector<EmbeddedFile>& embedded_files();
// The embedded file whose path is `path` or ends with "/" + `path`; null if none.
const EmbeddedFile* find_embedded(const std::string& path);

}  // namespace iowall
