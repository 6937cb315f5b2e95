// CRC-32 as zip archives use it (ISO-HDLC: polynomial 0x04C11DB7, reflected, initial and
// final value 0xFFFFFFFF), the checksum torch.save's zip container keeps for every record.
// Computed sixteen bytes a step with sixteen 256-entry tables ("slicing by 16"), so that a
// CPU pass measures a table-driven checksum's cost per byte, not a byte-at-a-time loop.
#pragma once
#include <cstddef>
#include <cstdint>

namespace iowall::measure {

// Continues `crc` (0 for a new checksum) over `n` bytes at `p`.
std::uint32_t crc32_update(std::uint32_t crc, const void* p, std::size_t n);

}  // namespace iowall::measure
