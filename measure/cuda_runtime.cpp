#include "measure/cuda_runtime.hpp"

#include <dlfcn.h>
#include <mutex>

#include <fmt/format.h>

#include "measure/options.hpp"
#include "measure/shared_library.hpp"
#include "sim/core/error.hpp"

namespace iowall::measure {
namespace {

struct Loaded {
  CudaRuntime rt;
  bool ok = false;
  std::string why;
};

Loaded load() {
  Loaded l;
  const SharedLibrary so = open_first({"libcudart.so.13", "libcudart.so.12", "libcudart.so"});
  l.rt.lib = so.handle;
  l.rt.lib_name = so.name;
  if (!l.rt.lib) {
    l.why = "the CUDA runtime could not be loaded: " + so.tried;
    return l;
  }
  std::string missing;
  auto& r = l.rt;
  bind_symbol(r.lib, "cudaGetDeviceCount", r.GetDeviceCount, &missing);
  bind_symbol(r.lib, "cudaSetDevice", r.SetDevice, &missing);
  bind_symbol(r.lib, "cudaMalloc", r.Malloc, &missing);
  bind_symbol(r.lib, "cudaFree", r.Free, &missing);
  bind_symbol(r.lib, "cudaHostRegister", r.HostRegister, &missing);
  bind_symbol(r.lib, "cudaHostUnregister", r.HostUnregister, &missing);
  bind_symbol(r.lib, "cudaMemcpyAsync", r.MemcpyAsync, &missing);
  bind_symbol(r.lib, "cudaMemcpy", r.Memcpy, &missing);
  bind_symbol(r.lib, "cudaHostAlloc", r.HostAlloc, &missing);
  bind_symbol(r.lib, "cudaFreeHost", r.FreeHost, &missing);
  bind_symbol(r.lib, "cudaMemset", r.Memset, &missing);
  bind_symbol(r.lib, "cudaStreamCreate", r.StreamCreate, &missing);
  bind_symbol(r.lib, "cudaStreamDestroy", r.StreamDestroy, &missing);
  bind_symbol(r.lib, "cudaStreamSynchronize", r.StreamSynchronize, &missing);
  bind_symbol(r.lib, "cudaDeviceSynchronize", r.DeviceSynchronize, &missing);
  bind_symbol(r.lib, "cudaRuntimeGetVersion", r.RuntimeGetVersion, &missing);
  bind_symbol(r.lib, "cudaDriverGetVersion", r.DriverGetVersion, &missing);
  bind_symbol(r.lib, "cudaGetErrorString", r.GetErrorString, &missing);
  if (!missing.empty()) {
    l.why = fmt::format("{} lacks {}", r.lib_name, missing);
    return l;
  }
  l.ok = true;
  return l;
}

}  // namespace

std::string CudaRuntime::error_text(cudaError_t e) const {
  const char* s = GetErrorString ? GetErrorString(e) : nullptr;
  return fmt::format("{} (CUDA error {})", s ? s : "unknown error", e);
}

void CudaRuntime::check(cudaError_t e, const char* what) const {
  if (e != 0) throw RunError(fmt::format("{} failed: {}", what, error_text(e)));
}

const CudaRuntime* load_cuda_runtime(std::string& why) {
  // Loaded once and never unloaded: CUDA's own teardown runs at process exit.
  static const Loaded loaded = load();
  why = loaded.why;
  return loaded.ok ? &loaded.rt : nullptr;
}

const CudaRuntime& require_gpu(int index, std::string_view xfer_name) { return require_gpu(index, "-x", xfer_name); }

const CudaRuntime& require_gpu(int index, std::string_view option, std::string_view value) {
  std::string why;
  const CudaRuntime* rt = load_cuda_runtime(why);
  const std::string opt(option);
  const std::string head = fmt::format("{} {} needs a CUDA GPU, but ", option, value);
  if (!rt) throw InputError(kWhere, opt, head + why);
  int count = 0;
  const cudaError_t e = rt->GetDeviceCount(&count);
  if (e != 0) throw InputError(kWhere, opt, head + "cudaGetDeviceCount failed: " + rt->error_text(e));
  if (count == 0) throw InputError(kWhere, opt, head + "cudaGetDeviceCount found no GPU");
  if (index >= count)
    throw InputError(kWhere, "-d", fmt::format("GPU index {} does not exist; this machine has {} GPU{}", index,
                                               count, count == 1 ? "" : "s"));
  return *rt;
}

}  // namespace iowall::measure

namespace iowall::measure {

std::string gpu_name(int index) {
  // The driver library is already loaded by the runtime; this only finds it again.
  void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return {};
  using Init = int (*)(unsigned);
  using Get = int (*)(int*, int);
  using Name = int (*)(char*, int, int);
  const auto init = reinterpret_cast<Init>(::dlsym(lib, "cuInit"));
  const auto get = reinterpret_cast<Get>(::dlsym(lib, "cuDeviceGet"));
  const auto name = reinterpret_cast<Name>(::dlsym(lib, "cuDeviceGetName"));
  char buf[256] = {};
  int dev = 0;
  const bool ok = init && get && name && init(0) == 0 && get(&dev, index) == 0 && name(buf, sizeof buf - 1, dev) == 0;
  ::dlclose(lib);
  return ok ? std::string(buf) : std::string();
}

}  // namespace iowall::measure
