// Output files are written to a temporary file beside the target and renamed into
// place, so an interrupted run never leaves a partial file behind.
#pragma once
#include <string>

namespace iowall {

// Writes `content` to `path` atomically; throws InputError when the directory does
// not exist or cannot be written.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace iowall
