#include "measure/options.hpp"

#include <cctype>
#include <charconv>
#include <tuple>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall::measure {
namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

[[noreturn]] void bad(std::string_view option, std::string message) {
  throw InputError(kWhere, std::string(option), std::move(message));
}

const char* gdsio_unimplemented(const std::string& s) {
  if (s == "3" || s == "cpu_async_gpu") return "CPU_ASYNC_GPU";
  if (s == "5" || s == "gpu_direct_async") return "GPU_DIRECT_ASYNC";
  if (s == "7" || s == "gpu_batch_stream") return "GPU_BATCH_STREAM";
  return nullptr;
}

}  // namespace

std::string size_text(Bytes b) {
  // Binary units when exact ("4 KiB"), else plain bytes ("3000 B"), as people type them.
  return b.n % 1024 == 0 ? to_string(b) : fmt::format("{} B", b.n);
}

std::string_view gdsio_name(TransferType t) {
  switch (t) {
    case TransferType::gpu_direct: return "GPUD";
    case TransferType::cpu_only: return "CPUONLY";
    case TransferType::cpu_gpu: return "CPU_GPU";
    case TransferType::cpu_cached_gpu: return "CPU_CACHED_GPU";
    case TransferType::gpu_batch: return "GPU_BATCH";
    case TransferType::cpu_cached: return "CPU_CACHED";
  }
  return "?";
}

std::string_view name(TransferType t) {
  switch (t) {
    case TransferType::gpu_direct: return "gpu_direct";
    case TransferType::cpu_only: return "cpu_only";
    case TransferType::cpu_gpu: return "cpu_gpu";
    case TransferType::cpu_cached_gpu: return "cpu_cached_gpu";
    case TransferType::gpu_batch: return "gpu_batch";
    case TransferType::cpu_cached: return "cpu_cached";
  }
  return "?";
}

std::string_view name(Engine e) { return e == Engine::psync ? "psync" : "io_uring"; }

std::string_view name(CopyKind k) {
  switch (k) {
    case CopyKind::none: return "none";
    case CopyKind::d2h: return "d2h";
    case CopyKind::h2d: return "h2d";
    case CopyKind::cpu_pass: return "cpu_pass";
  }
  return "?";
}

std::string_view name(HostMemory m) {
  switch (m) {
    case HostMemory::pinned: return "pinned";
    case HostMemory::pageable: return "pageable";
    case HostMemory::pageable_fresh: return "pageable_fresh";
  }
  return "?";
}

std::string_view name(ThpAdvice a) {
  switch (a) {
    case ThpAdvice::none: return "none";
    case ThpAdvice::huge: return "MADV_HUGEPAGE";
    case ThpAdvice::nohuge: return "MADV_NOHUGEPAGE";
  }
  return "?";
}

std::string_view name(CpuPass p) { return p == CpuPass::crc32 ? "crc32" : "memcpy"; }
std::string_view name(BufferPages p) { return p == BufferPages::small ? "small" : "huge"; }

bool uses_gpu(TransferType t) {
  return t != TransferType::cpu_only && t != TransferType::cpu_cached;
}
bool uses_cufile(TransferType t) {
  return t == TransferType::gpu_direct || t == TransferType::gpu_batch;
}
bool uses_odirect(TransferType t) {
  return t != TransferType::cpu_cached && t != TransferType::cpu_cached_gpu;
}

TransferType parse_transfer_type(std::string_view text, std::string_view option) {
  const std::string s = lower(text);
  if (s == "0" || s == "gpu_direct" || s == "gpud") return TransferType::gpu_direct;
  if (s == "1" || s == "cpu_only" || s == "cpuonly") return TransferType::cpu_only;
  if (s == "2" || s == "cpu_gpu") return TransferType::cpu_gpu;
  if (s == "4" || s == "cpu_cached_gpu") return TransferType::cpu_cached_gpu;
  if (s == "6" || s == "gpu_batch") return TransferType::gpu_batch;
  if (s == "cpu_cached") return TransferType::cpu_cached;
  if (const char* g = gdsio_unimplemented(s))
    bad(option, fmt::format("\"{}\" (gdsio's {}) is not implemented by iowall measure; use one of "
                            "gpu_direct (0), cpu_only (1), cpu_gpu (2), cpu_cached_gpu (4), "
                            "gpu_batch (6), cpu_cached",
                            text, g));
  bad(option, fmt::format("unknown transfer type \"{}\" (expected gpu_direct|0, cpu_only|1, cpu_gpu|2, "
                          "cpu_cached_gpu|4, gpu_batch|6 or cpu_cached)",
                          text));
}

Engine parse_engine(std::string_view text, std::string_view option) {
  const std::string s = lower(text);
  if (s == "psync") return Engine::psync;
  if (s == "io_uring" || s == "uring") return Engine::io_uring;
  bad(option, fmt::format("unknown engine \"{}\" (expected psync or io_uring)", text));
}

IoMode parse_io_mode(std::string_view text, std::string& canonical, std::string_view option) {
  const std::string s = lower(text);
  IoMode m;
  if (s == "read" || s == "0") {
    canonical = "read";
  } else if (s == "write" || s == "1") {
    canonical = "write";
    m.read_pct = 0;
  } else if (s == "randread" || s == "2") {
    canonical = "randread";
    m.random = true;
  } else if (s == "randwrite" || s == "3") {
    canonical = "randwrite";
    m.random = true;
    m.read_pct = 0;
  } else if (s == "rw" || s == "readwrite") {
    canonical = "rw";
    m.read_pct = 50;
  } else if (s == "randrw") {
    canonical = "randrw";
    m.random = true;
    m.read_pct = 50;
  } else {
    bad(option, fmt::format("unknown I/O mode \"{}\" (expected read|0, write|1, randread|2, "
                            "randwrite|3, rw or randrw)",
                            text));
  }
  return m;
}

Bytes parse_size_arg(std::string_view text, std::string_view option) {
  Bytes b;
  const ParseResult r = parse_bytes(text, b);
  if (r.ok) return b;
  // gdsio's forms: digits with an optional binary K/M/G/T suffix.
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  int shift = 0;
  if (!s.empty()) {
    switch (std::toupper(static_cast<unsigned char>(s.back()))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      default: break;
    }
  }
  if (shift) s.remove_suffix(1);
  std::int64_t v = 0;
  if (all_digits(s)) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && p == s.data() + s.size() && v <= (INT64_MAX >> shift))
      return Bytes(v << shift);
  }
  bad(option, fmt::format("\"{}\" is not a size (expected e.g. \"4 KiB\", \"1 MiB\", or gdsio's \"1M\")",
                          text));
}

Time parse_duration_arg(std::string_view text, std::string_view option) {
  Time t;
  const ParseResult r = parse_time(text, t);
  if (r.ok) return t;
  std::int64_t v = 0;
  if (all_digits(text)) {
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && v < 86'400 * 365) return sec(v);
  }
  bad(option, r.error);
}

CopyKind parse_copy_kind(std::string_view text, std::string_view option) {
  const std::string s = lower(text);
  if (s == "d2h") return CopyKind::d2h;
  if (s == "h2d") return CopyKind::h2d;
  if (s == "cpu_pass") return CopyKind::cpu_pass;
  bad(option, fmt::format("unknown copy \"{}\" (expected d2h, h2d or cpu_pass)", text));
}

HostMemory parse_host_memory(std::string_view text, std::string_view option) {
  const std::string s = lower(text);
  if (s == "pinned") return HostMemory::pinned;
  if (s == "pageable") return HostMemory::pageable;
  if (s == "pageable_fresh") return HostMemory::pageable_fresh;
  bad(option, fmt::format("unknown host memory \"{}\" (expected pinned, pageable or pageable_fresh)", text));
}

ThpAdvice parse_thp_advice(std::string_view text, std::string_view option) {
  const std::string s = lower(text);
  if (s == "huge" || s == "madv_hugepage") return ThpAdvice::huge;
  if (s == "nohuge" || s == "madv_nohugepage") return ThpAdvice::nohuge;
  if (s == "none") return ThpAdvice::none;
  bad(option, fmt::format("unknown advice \"{}\" (expected huge, nohuge or none)", text));
}

BufferPages parse_buffer_pages(std::string_view text, std::string_view option) {
  const std::string s = lower(text);
  if (s == "huge") return BufferPages::huge;
  if (s == "small") return BufferPages::small;
  bad(option, fmt::format("unknown buffer pages \"{}\" (expected huge or small)", text));
}

CpuPass parse_cpu_pass(std::string_view text, std::string_view option) {
  const std::string s = lower(text);
  if (s == "memcpy") return CpuPass::memcpy;
  if (s == "crc32") return CpuPass::crc32;
  bad(option, fmt::format("unknown pass \"{}\" (expected crc32 or memcpy)", text));
}

void parse_output_format(std::string_view text, MeasureOptions& o) {
  o.json = o.normal = false;
  std::string_view s = text;
  while (!s.empty()) {
    const auto comma = s.find(',');
    const std::string item = lower(s.substr(0, comma));
    if (item == "json")
      o.json = true;
    else if (item == "normal")
      o.normal = true;
    else if (item == "both")
      o.normal = o.json = true;
    else
      bad("--output-format", fmt::format("unknown format \"{}\" (expected normal, json, both or normal,json)", item));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  if (!o.json && !o.normal) bad("--output-format", "no format given (expected normal, json or normal,json)");
}

namespace {

// fio's durability options against the mode and the transfer type.
void validate_durability(const MeasureOptions& o) {
  const Durability& d = o.durability;
  for (const auto& [every, option, call] : {std::tuple{d.fsync_every, "--fsync", "fsync"},
                                            std::tuple{d.fdatasync_every, "--fdatasync", "fdatasync"}})
    if (every && *every < 1)
      bad(option, fmt::format("{} writes between {}s cannot be done; use 1 or more (fio's {}=0 means none: "
                              "leave the option out)",
                              *every, call, std::string_view(option).substr(2)));
  if (d.fsync_every && d.fdatasync_every) bad("--fdatasync", "give --fsync or --fdatasync, not both");
  if (d.any() && !o.mode.writes()) {
    const char* option = d.end_fsync ? "--end-fsync" : d.fsync_every ? "--fsync" : d.fdatasync_every ? "--fdatasync" : "--sync";
    bad(option, fmt::format("makes writes durable, but -I {} only reads; use -I write, randwrite, rw or randrw",
                            o.mode_text));
  }
  if (d.dsync && uses_cufile(o.xfer))
    bad("--sync", fmt::format("-x {} writes through cuFile, which does not say that its writes honour O_DSYNC on the "
                              "registered file (with GDS its DMA bypasses the kernel's write path); use --fsync 1 "
                              "(an fsync after every write) or --end-fsync",
                              name(o.xfer)));
}

}  // namespace

void validate_copy(const MeasureOptions& o) {
  const CopyOptions& c = o.copy;
  if (o.threads != 1) bad("-w", fmt::format("--copy runs one copying thread, not {}", o.threads));
  if (o.repeat < 1) bad("--repeat", fmt::format("{} repeats: at least one is needed", o.repeat));
  if (o.gpu < 0) bad("-d", fmt::format("GPU index {} is negative", o.gpu));
  if (!o.size) bad("-s", fmt::format("--copy {} needs -s, the bytes to copy in each repeat", name(c.kind)));
  if (o.size->n <= 0) bad("-s", "the size must be positive");
  if (o.io_size.n <= 0) bad("-i", "the chunk size must be positive");
  if (o.io_size.n > (i64(1) << 30)) bad("-i", fmt::format("\"{}\" is larger than the 1 GiB allowed", size_text(o.io_size)));
  if (o.size->n % o.io_size.n != 0)
    bad("-s", fmt::format("\"{}\" is not a multiple of the chunk size \"{}\"", size_text(*o.size), size_text(o.io_size)));
  if (c.kind == CopyKind::cpu_pass && c.memory == HostMemory::pinned)
    bad("--host-memory", "pinned memory is CUDA's; --copy cpu_pass works on pageable or pageable_fresh memory");
  if (c.kind == CopyKind::cpu_pass && c.pass == CpuPass::crc32 && c.memory == HostMemory::pageable_fresh)
    bad("--host-memory", "--pass crc32 only reads its bytes; pageable_fresh is the destination of --pass memcpy");
  if (c.memory == HostMemory::pinned && c.thp != ThpAdvice::none)
    bad("--thp", "applies to pageable memory; pinned memory from cudaHostAlloc is the driver's");
}

void validate(const MeasureOptions& o) {
  if (o.copy.kind != CopyKind::none) return validate_copy(o);
  if (o.file.empty()) bad("-f", "no target given (a file to create, an existing file, or a block device)");
  if (o.threads < 1) bad("-w", fmt::format("{} threads: at least one is needed", o.threads));
  if (o.threads > 1024) bad("-w", fmt::format("{} threads is more than the 1024 allowed", o.threads));
  if (o.qd < 1) bad("--qd", fmt::format("a queue depth of {} cannot issue any I/O; use 1 or more", o.qd));
  if (o.qd > 4096) bad("--qd", fmt::format("a queue depth of {} is more than the 4096 allowed", o.qd));
  if (o.pageable && o.xfer != TransferType::cpu_gpu && o.xfer != TransferType::cpu_cached_gpu)
    bad("--pageable", fmt::format("applies to the types that stage through host memory (cpu_gpu, cpu_cached_gpu), not {}",
                                  name(o.xfer)));
  if (o.buffer_pages == BufferPages::small && uses_cufile(o.xfer))
    bad("--buffer-pages", fmt::format("{} reads into GPU memory; there is no host buffer to choose pages for", name(o.xfer)));
  if (o.repeat < 1) bad("--repeat", fmt::format("{} repeats: at least one is needed", o.repeat));
  if (o.gpu < 0) bad("-d", fmt::format("GPU index {} is negative", o.gpu));
  if (o.io_size.n <= 0) bad("-i", "the I/O size must be positive");
  if (o.io_size.n > (i64(1) << 30)) bad("-i", fmt::format("\"{}\" is larger than the 1 GiB allowed", size_text(o.io_size)));
  if (o.mode.read_pct < 0 || o.mode.read_pct > 100)
    bad("--rwmixread", fmt::format("{} is not a percentage between 0 and 100", o.mode.read_pct));
  if (uses_odirect(o.xfer) && o.io_size.n % kAlign != 0)
    bad("-i", fmt::format("\"{}\" is not a multiple of 4 KiB, which O_DIRECT requires (-x {})",
                          size_text(o.io_size), name(o.xfer)));
  if (o.size) {
    if (o.size->n <= 0) bad("-s", "the size must be positive");
    if (uses_odirect(o.xfer) && o.size->n % kAlign != 0)
      bad("-s", fmt::format("\"{}\" is not a multiple of 4 KiB, which O_DIRECT requires (-x {})",
                            size_text(*o.size), name(o.xfer)));
    if (o.size->n % o.io_size.n != 0)
      bad("-s", fmt::format("\"{}\" is not a multiple of the I/O size \"{}\"", size_text(*o.size),
                            size_text(o.io_size)));
    if (o.size->n / o.io_size.n < o.threads)
      bad("-s", fmt::format("\"{}\" holds {} I/Os of \"{}\", fewer than the {} threads", size_text(*o.size),
                            o.size->n / o.io_size.n, size_text(o.io_size), o.threads));
  }
  if (o.runtime && o.runtime->ps <= 0) bad("--runtime", "the duration must be positive");
  // cuFile's synchronous calls and its batch API do their own queueing.
  if (uses_cufile(o.xfer) && o.engine == Engine::io_uring)
    bad("--engine", fmt::format("-x {} issues its I/O through cuFile, not io_uring; use --engine psync",
                                name(o.xfer)));
  if (o.xfer == TransferType::gpu_direct && o.qd != 1)
    bad("--qd", "-x gpu_direct calls cuFileRead/cuFileWrite synchronously (queue depth 1 per thread); "
                "use -w for more in flight or -x gpu_batch for a queue");
  if (o.engine == Engine::psync && o.qd != 1 && !uses_cufile(o.xfer))
    bad("--qd", fmt::format("the psync engine has one I/O in flight per thread; --qd {} needs --engine io_uring",
                            o.qd));
  if (!o.destroy_data_on.empty() && o.mode.read_pct == 100)
    bad("--destroy-data-on", "given for a read-only mode; it is only needed to write to a block device");
  validate_durability(o);
}

}  // namespace iowall::measure
