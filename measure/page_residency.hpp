// How much of a file the page cache holds: a buffered (cpu_cached) run's speed depends on
// it more than on the disk, so a measurement records it at the start of every repeat.
#pragma once
#include <cstdint>
#include <optional>

namespace iowall::measure {

// The fraction of [0, size) of the regular file open at `fd` resident in the page cache
// (mincore over read-only mappings of at most 1 GiB at a time); nullopt where it cannot
// be read (not a regular file, or the mapping refused).
std::optional<double> page_cache_resident(int fd, std::int64_t size);

}  // namespace iowall::measure
