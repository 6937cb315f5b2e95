// Is a block device in use? Writing to a device that holds a mounted file system (on
// itself or on one of its partitions), active swap, or a device-mapper/md stack on top
// would destroy data the system is using, so `iowall measure` refuses.
#pragma once
#include <string>
#include <sys/types.h>
#include <vector>

namespace iowall::measure {

// The device numbers of `dev` and of its partitions (from /sys/dev/block).
std::vector<dev_t> device_and_partitions(dev_t dev);

// Why `dev` (a block device, st_rdev) must not be written, or "" when nothing on it is
// in use. Looks at /proc/self/mounts (mount sources), /proc/self/mountinfo (the device
// number of every mounted file system), /proc/swaps and /sys/dev/block/*/holders.
std::string device_in_use(dev_t dev);

}  // namespace iowall::measure
