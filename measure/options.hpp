// What `iowall measure` was asked to do, in gdsio's and fio's vocabulary, and the
// parsers that turn command-line text into it. Every rejection is one InputError.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "measure/aligned_buffer.hpp"
#include "sim/core/units.hpp"

namespace iowall::measure {

// gdsio's transfer types (-x). Numbers are gdsio's; ours accept names and numbers.
enum class TransferType {
  gpu_direct,      // 0: cuFileRead/cuFileWrite into GPU memory
  cpu_only,        // 1: O_DIRECT into host memory
  cpu_gpu,         // 2: O_DIRECT into pinned memory, then cudaMemcpyAsync
  cpu_cached_gpu,  // 4: buffered into pinned memory, then cudaMemcpyAsync
  gpu_batch,       // 6: cuFileBatchIOSubmit
  cpu_cached,      // buffered (page cache) into host memory; no gdsio number
};

enum class Engine { psync, io_uring };

// -I: what each operation does and where its offset comes from.
struct IoMode {
  bool random = false;
  int read_pct = 100;  // 100 = read only, 0 = write only, else mixed
  bool reads() const { return read_pct > 0; }
  bool writes() const { return read_pct < 100; }
};

// fio's durability options: when written data is made durable (DESIGN.md, Durability).
struct Durability {
  bool end_fsync = false;                       // --end-fsync: one fsync after each thread's last write
  std::optional<std::int64_t> fsync_every;      // --fsync N: fsync after every N writes
  std::optional<std::int64_t> fdatasync_every;  // --fdatasync N: fdatasync after every N writes
  bool dsync = false;                           // --sync: the target is opened with O_DSYNC
  bool any() const { return end_fsync || fsync_every || fdatasync_every || dsync; }
  // Writes between two syncs (fsync or fdatasync), 0 when neither is asked for.
  std::int64_t every() const { return fsync_every ? *fsync_every : fdatasync_every ? *fdatasync_every : 0; }
};

// --copy: memory copies instead of I/O (host_copy.hpp).
enum class CopyKind { none, d2h, h2d, cpu_pass };
// --host-memory: the host side of a copy.
enum class HostMemory {
  pinned,          // cudaHostAlloc, page-locked
  pageable,        // malloc'd and touched before timing, reused by every repeat
  pageable_fresh,  // a fresh anonymous mapping per repeat, first touched by the copy
};
// --thp: advice for pageable host memory (madvise), or none: the system's setting decides.
enum class ThpAdvice { none, huge, nohuge };
// --pass: what a CPU pass does with each chunk.
enum class CpuPass { memcpy, crc32 };

struct CopyOptions {
  CopyKind kind = CopyKind::none;
  HostMemory memory = HostMemory::pageable;
  ThpAdvice thp = ThpAdvice::none;
  CpuPass pass = CpuPass::memcpy;
};

struct MeasureOptions {
  std::string file;                       // -f
  std::optional<Bytes> size;              // -s (total over all threads)
  Bytes io_size{1 << 20};                 // -i
  int threads = 1;                        // -w
  TransferType xfer = TransferType::cpu_only;  // -x
  IoMode mode;                            // -I, --rwmixread
  std::string mode_text = "read";         // as given, canonical name
  int gpu = 0;                            // -d
  Engine engine = Engine::psync;          // --engine
  int qd = 1;                             // --qd
  std::optional<Time> runtime;            // --runtime
  bool json = false, normal = true;       // --output-format
  std::string output;                     // --output
  int repeat = 1;                         // --repeat
  bool quiet = false;                     // --quiet
  bool group_reporting = false;           // --group-reporting: one fio job per repeat, all threads together
  bool keep = false;                      // --keep
  bool pageable = false;                  // --pageable: staged GPU types copy from pageable memory
  bool invalidate = false;                // --invalidate (fio's): drop the target's cached pages before each repeat
  bool allow_write = false;               // --allow-write
  std::string destroy_data_on;            // --destroy-data-on
  std::uint64_t seed = 1;                 // --seed (random offsets, mixed choices, fill data)
  Durability durability;                  // --end-fsync, --fsync, --fdatasync, --sync
  CopyOptions copy;                       // --copy, --host-memory, --thp, --pass
  BufferPages buffer_pages = BufferPages::huge;  // --buffer-pages: the host I/O buffer's pages
};

// Names as gdsio prints them in its summary ("CPUONLY", "GPUD", ...).
std::string_view gdsio_name(TransferType t);
// Our canonical lower-case name ("cpu_only").
std::string_view name(TransferType t);
std::string_view name(Engine e);

bool uses_gpu(TransferType t);
bool uses_cufile(TransferType t);
// Whether the file is opened with O_DIRECT (and so needs 4 KiB alignment).
bool uses_odirect(TransferType t);

std::string_view name(CopyKind k);
std::string_view name(HostMemory m);
std::string_view name(ThpAdvice a);  // "none", "MADV_HUGEPAGE", "MADV_NOHUGEPAGE"
std::string_view name(CpuPass p);
std::string_view name(BufferPages p);  // "huge", "small"

// Parsers for one option each; `option` names the flag in the error.
TransferType parse_transfer_type(std::string_view text, std::string_view option = "-x");
Engine parse_engine(std::string_view text, std::string_view option = "--engine");
// read|write|randread|randwrite|rw|randrw, or gdsio's 0..3. Returns the canonical name.
IoMode parse_io_mode(std::string_view text, std::string& canonical, std::string_view option = "-I");
// "4 KiB", "1 MiB" (iowall's units) or gdsio's "4K", "1M", "1G", or bare bytes "4096".
// gdsio's K/M/G/T suffixes are binary (1M = 1048576 bytes).
Bytes parse_size_arg(std::string_view text, std::string_view option);
// "10 s", "500 ms" (iowall's units) or a bare number of seconds as gdsio's -T takes.
Time parse_duration_arg(std::string_view text, std::string_view option);
CopyKind parse_copy_kind(std::string_view text, std::string_view option = "--copy");
HostMemory parse_host_memory(std::string_view text, std::string_view option = "--host-memory");
ThpAdvice parse_thp_advice(std::string_view text, std::string_view option = "--thp");
BufferPages parse_buffer_pages(std::string_view text, std::string_view option = "--buffer-pages");
CpuPass parse_cpu_pass(std::string_view text, std::string_view option = "--pass");
// "normal", "json" or "normal,json".
void parse_output_format(std::string_view text, MeasureOptions& o);

// A size for messages: "4 KiB" when exact in binary units, else "3000 B".
std::string size_text(Bytes b);

// Checks the combination (O_DIRECT alignment, queue depth, engine and type, durability, ...);
// for --copy, the copy's own options (validate_copy).
// Checks that need the target (its size, whether it exists) are in target.hpp.
void validate(const MeasureOptions& o);
void validate_copy(const MeasureOptions& o);

inline constexpr const char* kWhere = "iowall measure";
inline constexpr std::int64_t kAlign = 4096;

}  // namespace iowall::measure
