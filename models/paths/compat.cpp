#include "models/paths/compat.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

IOWALL_REGISTER_PATH(CompatPath, "compat", "cuFile compatibility mode: POSIX I/O through pinned bounce buffers and I/O threads");

}  // namespace iowall
