// The few CUDA runtime functions iowall needs, loaded with dlopen at run time so that
// one binary runs with and without a GPU. Prototypes are declared here, not taken from
// CUDA's headers, so nothing CUDA is needed to build.
#pragma once
#include <cstddef>
#include <string>

namespace iowall::measure {

using cudaError_t = int;        // an enum in CUDA; 0 is cudaSuccess
using cudaStream_t = void*;     // an opaque pointer in CUDA
enum CudaMemcpyKind : int { kHostToDevice = 1, kDeviceToHost = 2 };
inline constexpr unsigned kCudaHostRegisterDefault = 0;

struct CudaRuntime {
  void* lib = nullptr;
  std::string lib_name;
  cudaError_t (*GetDeviceCount)(int*) = nullptr;
  cudaError_t (*SetDevice)(int) = nullptr;
  cudaError_t (*Malloc)(void**, std::size_t) = nullptr;
  cudaError_t (*Free)(void*) = nullptr;
  cudaError_t (*HostRegister)(void*, std::size_t, unsigned) = nullptr;
  cudaError_t (*HostUnregister)(void*) = nullptr;
  cudaError_t (*MemcpyAsync)(void*, const void*, std::size_t, int, cudaStream_t) = nullptr;
  cudaError_t (*Memcpy)(void*, const void*, std::size_t, int) = nullptr;
  cudaError_t (*HostAlloc)(void**, std::size_t, unsigned) = nullptr;
  cudaError_t (*FreeHost)(void*) = nullptr;
  cudaError_t (*Memset)(void*, int, std::size_t) = nullptr;
  cudaError_t (*StreamCreate)(cudaStream_t*) = nullptr;
  cudaError_t (*StreamDestroy)(cudaStream_t) = nullptr;
  cudaError_t (*StreamSynchronize)(cudaStream_t) = nullptr;
  cudaError_t (*DeviceSynchronize)() = nullptr;
  cudaError_t (*RuntimeGetVersion)(int*) = nullptr;
  cudaError_t (*DriverGetVersion)(int*) = nullptr;
  const char* (*GetErrorString)(cudaError_t) = nullptr;

  std::string error_text(cudaError_t e) const;
  // Throws RunError naming `what` when `e` is not success.
  void check(cudaError_t e, const char* what) const;
};

// Loads libcudart (13, 12, then unversioned) once per process. Returns nullptr and
// fills `why` when it cannot be loaded or lacks a needed function.
const CudaRuntime* load_cuda_runtime(std::string& why);

// Loads the runtime and checks that GPU `index` exists; throws InputError naming the
// transfer type (`-x`) otherwise, since this machine cannot run it.
const CudaRuntime& require_gpu(int index, std::string_view xfer_name);
// The same for another option: "`option` `value` needs a CUDA GPU, but ...".
const CudaRuntime& require_gpu(int index, std::string_view option, std::string_view value);

// GPU `index`'s name from the driver (libcuda's cuDeviceGetName), or "" where it cannot be read.
std::string gpu_name(int index);

}  // namespace iowall::measure
