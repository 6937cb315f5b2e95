// What `iowall measure` was asked to do, in gdsio's and fio's vocabulary, and the
// parsers that turn command-line text into it. Every rejection is one InputError.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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
  bool keep = false;                      // --keep
  bool pageable = false;                  // --pageable: staged GPU types copy from pageable memory
  bool invalidate = false;                // --invalidate (fio's): drop the target's cached pages before each repeat
  bool allow_write = false;               // --allow-write
  std::string destroy_data_on;            // --destroy-data-on
  std::uint64_t seed = 1;                 // --seed (random offsets, mixed choices, fill data)
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
// "normal", "json" or "normal,json".
void parse_output_format(std::string_view text, MeasureOptions& o);

// A size for messages: "4 KiB" when exact in binary units, else "3000 B".
std::string size_text(Bytes b);

// Checks the combination (O_DIRECT alignment, queue depth, engine and type, ...).
// Checks that need the target (its size, whether it exists) are in target.hpp.
void validate(const MeasureOptions& o);

inline constexpr const char* kWhere = "iowall measure";
inline constexpr std::int64_t kAlign = 4096;

}  // namespace iowall::measure
