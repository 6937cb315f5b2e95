// Results are written to a temporary file in the destination's directory and renamed
// over it, so a reader never sees half a file and an interrupted run leaves the old one.
#pragma once
#include <string>
#include <string_view>

namespace iowall::measure {

// Throws RunError when the file cannot be written.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace iowall::measure
