// `iowall measure`: real I/O in gdsio's vocabulary, results in fio's JSON shape; with
// --copy, the host-memory copies of a checkpoint (cudaMemcpy, a CPU pass) in the same shape.
//
// Sizes (-s, -i) take iowall's unit strings ("4 KiB", "1 MiB") or gdsio's forms
// ("4K", "1M": binary multiples; a bare number is bytes). --runtime takes "10 s",
// "500 ms", or a bare number of seconds (gdsio's -T).
//
// Output: the gdsio-style line goes to stdout (unless --quiet); JSON goes to --output
// FILE, written atomically, or to stdout when no file is named. With only "normal"
// and --output, the summary lines go to the file instead.
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>

#include <sys/stat.h>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/cli/measure_command.hpp"
#include "measure/host_copy.hpp"
#include "measure/report.hpp"
#include "measure/runner.hpp"
#include "sim/core/error.hpp"
#include "sim/cli/output_path.hpp"
#include "sim/cli/option_values.hpp"

namespace iowall::measure {
namespace {

struct RawOptions {
  std::string file, size, io_size = "1M", xfer = "cpu_only", mode = "read", engine = "psync", runtime,
                      format = "normal", output, destroy;
  std::string fsync, fdatasync, copy, host_memory = "pageable", thp = "none", pass = "memcpy",
                      buffer_pages = "huge";
  bool end_fsync = false, dsync = false;
  int threads = 1, gpu = 0, qd = 1, repeat = 1;
  int rwmixread = -1;
  std::uint64_t seed = 1;
  bool group_reporting = false;
  bool quiet = false, keep = false, allow_write = false, invalidate = false, pageable = false;
};

// --fsync N, --fdatasync N: a whole number (its range is checked by validate()).
std::int64_t write_count(const std::string& text, const char* option) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end)
    throw InputError(kWhere, option, fmt::format("\"{}\" is not a whole number of writes", text.substr(0, 40)));
  return v;
}

// Options of one kind of measurement given to the other: I/O options with --copy, and the
// copy's options without it.
void check_applicable(const CLI::App& cmd, bool copy) {
  static const char* const io_only[] = {"-f", "-x", "-I", "--rwmixread", "--engine",
                                        "--qd", "--runtime", "--keep", "--invalidate", "--pageable", "--allow-write",
                                        "--destroy-data-on", "--end-fsync", "--fsync", "--fdatasync", "--sync",
                                        "--group-reporting", "--buffer-pages"};
  static const char* const copy_only[] = {"--host-memory", "--thp", "--pass"};
  if (copy) {
    for (const char* name : io_only)
      if (cmd.count(name) > 0)
        throw InputError(kWhere, name, "does not apply to --copy, which measures memory copies without storage");
  } else {
    for (const char* name : copy_only)
      if (cmd.count(name) > 0) throw InputError(kWhere, name, "applies only with --copy d2h|h2d|cpu_pass");
  }
}

MeasureOptions convert(const RawOptions& r, const CLI::App& cmd) {
  MeasureOptions o;
  if (!r.copy.empty()) o.copy.kind = parse_copy_kind(r.copy);
  check_applicable(cmd, o.copy.kind != CopyKind::none);
  o.copy.memory = parse_host_memory(r.host_memory);
  o.copy.thp = parse_thp_advice(r.thp);
  o.copy.pass = parse_cpu_pass(r.pass);
  o.buffer_pages = parse_buffer_pages(r.buffer_pages);
  if (cmd.count("--pass") > 0 && o.copy.kind != CopyKind::cpu_pass)
    throw InputError(kWhere, "--pass", fmt::format("applies to --copy cpu_pass, not {}", name(o.copy.kind)));
  o.durability.end_fsync = r.end_fsync;
  o.durability.dsync = r.dsync;
  if (!r.fsync.empty()) o.durability.fsync_every = write_count(r.fsync, "--fsync");
  if (!r.fdatasync.empty()) o.durability.fdatasync_every = write_count(r.fdatasync, "--fdatasync");
  o.file = r.file;
  if (!r.size.empty()) o.size = parse_size_arg(r.size, "-s");
  o.io_size = parse_size_arg(r.io_size, "-i");
  o.threads = r.threads;
  o.xfer = parse_transfer_type(r.xfer);
  o.mode = parse_io_mode(r.mode, o.mode_text);
  if (r.rwmixread >= 0) {
    if (o.mode.read_pct != 50)
      throw InputError(kWhere, "--rwmixread", fmt::format("only applies to -I rw or randrw, not {}", o.mode_text));
    o.mode.read_pct = r.rwmixread;
  }
  o.gpu = r.gpu;
  o.engine = parse_engine(r.engine);
  o.qd = r.qd;
  if (!r.runtime.empty()) o.runtime = parse_duration_arg(r.runtime, "--runtime");
  parse_output_format(r.format, o);
  o.output = r.output;
  o.repeat = r.repeat;
  o.quiet = r.quiet;
  o.group_reporting = r.group_reporting;
  o.keep = r.keep;
  o.invalidate = r.invalidate;
  o.pageable = r.pageable;
  o.allow_write = r.allow_write;
  o.destroy_data_on = r.destroy;
  o.seed = r.seed;
  return o;
}

// Whether two spellings name one file: by device and inode where both exist (links,
// relative and absolute paths, "./x"), else by their canonical paths (a target that
// the measurement is about to create).
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa{}, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
  return !ea && !eb && ca == cb;
}

// The JSON or the summary lines to --output or stdout, as the options ask.
void write_out(const MeasureOptions& o, const std::string& lines, const std::string& json) {
  if (!o.output.empty()) {
    iowall::write_file_atomically(o.output, o.json ? json : lines);
    if (o.json && o.normal && !o.quiet) fmt::print("{}", lines);
    return;
  }
  if (o.normal && !o.quiet) fmt::print("{}", lines);
  if (o.json) fmt::print("{}", json);
  std::fflush(stdout);
}

void emit_copy(const MeasureOptions& o, const CopyRunInfo& info) {
  std::string lines;
  for (const auto& r : info.repeats) lines += copy_summary(info, r) + "\n";
  write_out(o, lines, o.json ? copy_to_json(info).dump(2) + "\n" : std::string());
}

void emit_measurement(const MeasureOptions& o, const RunInfo& info) {
  std::string lines;
  for (const auto& r : info.repeats) {
    lines += gdsio_summary(info, r) + "\n";
    if (r.disk) lines += disk_summary(*r.disk) + "\n";
    if (o.mode.writes()) lines += durability_summary(r) + "\n" + page_cache_summary(r.page_cache) + "\n";
  }
  if (info.cufile && !o.quiet)
    fmt::print(stderr, "iowall measure: cuFile ran in {} mode ({})\n",
               !info.cufile->compat ? "an unknown" : *info.cufile->compat ? "compatibility" : "GPUDirect (GDS)",
               info.cufile->reason);
  write_out(o, lines, o.json ? to_json(info).dump(2) + "\n" : std::string());
}

}  // namespace

void setup_measure_command(CLI::App& root, CliState& state) {
  auto raw = std::make_shared<RawOptions>();
  CLI::App* cmd = root.add_subcommand(
      "measure", "measure real I/O (gdsio's transfer types, fio's JSON): files, block devices, cuFile");
  cmd->add_option("-f,--file", raw->file,
                  "Target: a path to create (needs -s; removed afterwards unless --keep), an existing file "
                  "(read-only unless --allow-write) or a block device (read-only unless --destroy-data-on); "
                  "not with --copy");
  cmd->add_option("-s,--size", raw->size, "Total size over all threads: \"1 GiB\" or \"1G\" (default: the file's or device's size)");
  cmd->add_option("-i,--io-size", raw->io_size, "I/O size: \"1 MiB\" or \"1M\"")->capture_default_str();
  cmd->add_option("-w,--threads", raw->threads, "Threads, each on its own region of the target")->capture_default_str();
  cmd->add_option("-x,--xfer-type", raw->xfer,
                  "Transfer type: gpu_direct|0, cpu_only|1, cpu_gpu|2, cpu_cached_gpu|4, gpu_batch|6, cpu_cached")->capture_default_str();
  cmd->add_option("-I,--io-mode", raw->mode, "read|0, write|1, randread|2, randwrite|3, rw, randrw")->capture_default_str();
  cmd->add_option("--rwmixread", raw->rwmixread, "Percentage of reads for rw and randrw (default 50)");
  cmd->add_option("-d,--gpu", raw->gpu, "GPU index")->capture_default_str();
  cmd->add_option("--engine", raw->engine, "Host I/O engine: psync or io_uring")->capture_default_str();
  cmd->add_option("--qd", raw->qd, "Queue depth per thread (io_uring, gpu_batch)")->capture_default_str();
  cmd->add_option("-T,--runtime", raw->runtime, "Run for this long instead of once over -s: \"10 s\"");
  cmd->add_option("--output-format", raw->format, "normal, json, or both (= normal,json)")->capture_default_str();
  cmd->add_option("--output", raw->output, "Write the results to this file (atomically)")->check(writable_output());
  cmd->add_option("--repeat", raw->repeat, "Repeat the whole measurement this many times")->capture_default_str();
  add_seed_option(*cmd, raw->seed, "Seed for random offsets, mixed choices and file contents (default 1)");
  cmd->add_flag("--quiet", raw->quiet, "No summary or notes on the terminal");
  cmd->add_flag("--group-reporting,--group_reporting", raw->group_reporting,
                "fio's group_reporting: one job per repeat in the JSON with all threads' totals, instead of one per thread");
  cmd->add_flag("--keep", raw->keep, "Keep the file that iowall created");
  cmd->add_flag("--invalidate", raw->invalidate,
                "Drop the target's pages from the page cache before each repeat (as fio's --invalidate=1), "
                "so that buffered reads start cold");
  cmd->add_flag("--pageable", raw->pageable,
                "cpu_gpu, cpu_cached_gpu: leave the host buffer pageable (not registered with CUDA), so that "
                "cudaMemcpyAsync stages it through the driver's pinned buffer, as a plain cudaMemcpy from malloc'd memory does");
  cmd->add_flag("--allow-write", raw->allow_write, "Allow writing to an existing file");
  cmd->add_option("--destroy-data-on", raw->destroy,
                  "Allow writing to this block device (the same as -f), destroying its data; refused while "
                  "anything on it is mounted");
  cmd->add_flag("--end-fsync", raw->end_fsync,
                "fio's end_fsync: each thread fsyncs the target after its last write, inside its timed run");
  cmd->add_option("--fsync", raw->fsync, "fio's fsync: fsync after every N writes of a thread (once those in flight are done)");
  cmd->add_option("--fdatasync", raw->fdatasync, "fio's fdatasync: fdatasync after every N writes of a thread");
  cmd->add_flag("--sync", raw->dsync, "Open the target with O_DSYNC: every write returns durable");
  cmd->add_option("--copy", raw->copy,
                  "Measure memory copies instead of I/O: d2h (cudaMemcpy GPU to host), h2d, or cpu_pass "
                  "(a serialization pass over host memory); -s bytes, -i per call");
  cmd->add_option("--host-memory", raw->host_memory,
                  "--copy: pinned (cudaHostAlloc), pageable (malloc'd, touched, reused) or pageable_fresh "
                  "(a new mapping each repeat: page faults and zeroing inside the copy)")
      ->capture_default_str();
  cmd->add_option("--thp", raw->thp,
                  "--copy, pageable memory: huge (MADV_HUGEPAGE), nohuge (MADV_NOHUGEPAGE) or none (the system's setting)")
      ->capture_default_str();
  cmd->add_option("--buffer-pages", raw->buffer_pages,
                  "cpu_only, cpu_cached, cpu_gpu, cpu_cached_gpu: the host I/O buffer's pages: huge (2 MiB-aligned, "
                  "MADV_HUGEPAGE: one DMA segment per request) or small (4 KiB pages, MADV_NOHUGEPAGE: about one "
                  "segment per page, as a program's malloc'd buffer; a virtual disk can pay per segment)")
      ->capture_default_str();
  cmd->add_option("--pass", raw->pass, "--copy cpu_pass: memcpy (into --host-memory) or crc32 (zip's CRC-32)")
      ->capture_default_str();
  cmd->callback([raw, cmd, &state] {
    const MeasureOptions o = convert(*raw, *cmd);
    validate(o);
    if (o.copy.kind != CopyKind::none) {
      const CopyRunInfo info = run_copy_measurement(o);
      emit_copy(o, info);
      state.exit_code = 0;
      return;
    }
    if (!o.output.empty() && same_file(o.output, o.file))
      throw InputError(kWhere, "--output", fmt::format("{} is the measurement's own target (-f {})", o.output, o.file));
    const RunInfo info = run_measurement(o);
    emit_measurement(o, info);
    state.exit_code = 0;
  });
}

IOWALL_REGISTER_COMMAND(50, setup_measure_command);

}  // namespace iowall::measure
