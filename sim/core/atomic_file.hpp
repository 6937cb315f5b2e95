// Output files. A regular file (or a new path) is written to a temporary file beside the
// target and renamed into place, so an interrupted run never leaves a partial file behind;
// the replaced file keeps its permission bits and owner, a new one gets 0666 less the
// umask. Anything else that already sits at the path is never replaced: a character
// device (/dev/null, a terminal), a FIFO or a socket is written straight through, `-` is
// standard output, and a directory is refused. A symbolic link is followed: the file it
// names is the one replaced, the link stays.
#pragma once
#include <string>

namespace iowall {

// Writes `content` to `path` as above; throws InputError naming `path` when the directory
// does not exist or cannot be written, or when `path` is a directory.
void write_file_atomically(const std::string& path, const std::string& content);

// Checks, before any work starts, that `path` could be written as above: its directory
// exists and is writable, it is not a directory, and an existing file is writable.
// Returns "" when it can, else one line saying why (for the option's error message).
std::string output_path_problem(const std::string& path);

}  // namespace iowall
