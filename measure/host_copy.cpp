#include "measure/host_copy.hpp"

#include <ctime>
#include <cstring>
#include <memory>
#include <sys/resource.h>

#include <fmt/format.h>

#include "measure/crc32.hpp"
#include "measure/cuda_runtime.hpp"
#include "measure/host_memory.hpp"
#include "measure/worker.hpp"
#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"

namespace iowall::measure {
namespace {

struct Usage {
  double usr = 0, sys = 0;
  long ctx = 0, minflt = 0, majflt = 0;
};

// The whole process: a pageable cudaMemcpy may be served by the driver's own threads.
Usage process_usage() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  return {static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) / 1e6,
          static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) / 1e6,
          ru.ru_nvcsw + ru.ru_nivcsw, ru.ru_minflt, ru.ru_majflt};
}

// GPU memory of one measurement, freed in any case.
struct DeviceBuffer {
  const CudaRuntime* rt = nullptr;
  void* p = nullptr;
  ~DeviceBuffer() {
    if (p) rt->Free(p);
  }
};

class CopyRun {
public:
  explicit CopyRun(const MeasureOptions& o, CopyRunInfo& info) : o_(o), info_(info) {
    bytes_ = static_cast<std::size_t>(o.size->n);
    chunk_ = static_cast<std::size_t>(o.io_size.n);
    const CopyOptions& c = o.copy;
    if (c.kind != CopyKind::cpu_pass) {
      // Refused before any memory is taken.
      cuda_ = &require_gpu(o.gpu, "--copy", name(c.kind));
      info.cuda_library = cuda_->lib_name;
      cuda_->check(cuda_->SetDevice(o.gpu), "cudaSetDevice");
      info.gpu_name = gpu_name(o.gpu);
      device_.rt = cuda_;
      cuda_->check(cuda_->Malloc(&device_.p, bytes_), "cudaMalloc");
      cuda_->check(cuda_->Memset(device_.p, 0xa5, bytes_), "cudaMemset");
      // The first copy of a process sets up the driver's staging buffers: not timed.
      char small[4096];
      cuda_->check(cuda_->Memcpy(small, device_.p, sizeof small, kDeviceToHost), "cudaMemcpy (warm-up)");
      cuda_->check(cuda_->DeviceSynchronize(), "cudaDeviceSynchronize");
    } else if (c.pass == CpuPass::memcpy) {
      source_ = std::make_unique<HostBuffer>(HostMemory::pageable, ThpAdvice::none, bytes_, nullptr);
    }
    if (c.memory != HostMemory::pageable_fresh) host_ = std::make_unique<HostBuffer>(c.memory, c.thp, bytes_, cuda_);
  }

  CopyRepeat run(int repeat) {
    CopyRepeat r;
    r.repeat = repeat;
    std::unique_ptr<HostBuffer> fresh;
    if (o_.copy.memory == HostMemory::pageable_fresh)
      fresh = std::make_unique<HostBuffer>(HostMemory::pageable_fresh, o_.copy.thp, bytes_, cuda_);
    HostBuffer& host = fresh ? *fresh : *host_;
    info_.advice_applied = host.advice_applied();
    const Usage u0 = process_usage();
    const std::uint64_t start = monotonic_ns();
    for (std::size_t off = 0; off < bytes_; off += chunk_) {
      throw_if_interrupted();
      const std::uint64_t t = monotonic_ns();
      one_chunk(host, off, r);
      r.lat_ns.add(monotonic_ns() - t);
      ++r.chunks;
      r.bytes += chunk_;
    }
    // A pageable host-to-device cudaMemcpy returns once the bytes are staged; the DMA of the
    // last chunk may still be under way.
    if (cuda_) cuda_->check(cuda_->DeviceSynchronize(), "cudaDeviceSynchronize");
    r.seconds = static_cast<double>(monotonic_ns() - start) / 1e9;
    const Usage u1 = process_usage();
    r.usr_s = u1.usr - u0.usr;
    r.sys_s = u1.sys - u0.sys;
    r.ctx = u1.ctx - u0.ctx;
    r.minor_faults = u1.minflt - u0.minflt;
    r.major_faults = u1.majflt - u0.majflt;
    r.huge_page_bytes = static_cast<std::int64_t>(host.huge_page_bytes());
    return r;
  }

private:
  void one_chunk(const HostBuffer& host, std::size_t off, CopyRepeat& r) {
    char* h = host.data() + off;
    switch (o_.copy.kind) {
      case CopyKind::d2h:
        cuda_->check(cuda_->Memcpy(h, static_cast<char*>(device_.p) + off, chunk_, kDeviceToHost),
                     "cudaMemcpy (device to host)");
        break;
      case CopyKind::h2d:
        cuda_->check(cuda_->Memcpy(static_cast<char*>(device_.p) + off, h, chunk_, kHostToDevice),
                     "cudaMemcpy (host to device)");
        break;
      case CopyKind::cpu_pass:
        if (o_.copy.pass == CpuPass::crc32)
          r.crc32 = crc32_update(r.crc32, h, chunk_);
        else
          std::memcpy(h, source_->data() + off, chunk_);
        break;
      case CopyKind::none: break;
    }
  }

  const MeasureOptions& o_;
  CopyRunInfo& info_;
  std::size_t bytes_ = 0, chunk_ = 0;
  const CudaRuntime* cuda_ = nullptr;
  DeviceBuffer device_;
  std::unique_ptr<HostBuffer> host_, source_;
};

}  // namespace

CopyRunInfo run_copy_measurement(const MeasureOptions& o) {
  validate_copy(o);
  CopyRunInfo info;
  info.options = o;
  info.unix_time = static_cast<long>(std::time(nullptr));
  info.thp_enabled = thp_enabled_mode();
  InterruptGuard guard;
  CopyRun run(o, info);
  for (int r = 1; r <= o.repeat; ++r) info.repeats.push_back(run.run(r));
  return info;
}

}  // namespace iowall::measure
