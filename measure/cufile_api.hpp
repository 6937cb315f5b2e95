// The cuFile (GPUDirect Storage) functions iowall needs, loaded with dlopen at run
// time. Types mirror cufile.h's layouts (cuFile 1.x); they are declared here so that
// nothing CUDA is needed to build.
#pragma once
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <sys/types.h>

namespace iowall::measure {

namespace cufile {
struct Error {  // CUfileError_t: a cuFile code (0, or 5000 + n) and a CUDA driver code
  int err;
  int cu_err;
};
using Handle = void*;
using BatchHandle = void*;
inline constexpr int kSuccess = 0;
inline constexpr int kHandleNotRegistered = 5027;
inline constexpr int kHandleTypeOpaqueFd = 1;

struct Descr {  // CUfileDescr_t
  int type;
  union {
    int fd;
    void* handle;
  } handle;
  const void* fs_ops;
};

struct DrvProps {  // CUfileDrvProps_t
  struct {
    unsigned int major_version, minor_version;
    std::size_t poll_thresh_size, max_direct_io_size;
    unsigned int dstatusflags, dcontrolflags;
  } nvfs;
  unsigned int fflags, max_device_cache_size, per_buffer_cache_size, max_device_pinned_mem_size,
      max_batch_io_size, max_batch_io_timeout_msecs;
};

enum Opcode : int { kRead = 0, kWrite = 1 };
enum Status : int { kWaiting = 1, kPending = 2, kInvalid = 4, kCanceled = 8, kComplete = 16, kTimeout = 32, kFailed = 64 };

struct IOParams {  // CUfileIOParams_t
  int mode;        // CUFILE_BATCH = 1
  union {
    struct {
      void* devPtr_base;
      off_t file_offset;
      off_t devPtr_offset;
      std::size_t size;
    } batch;
  } u;
  Handle fh;
  int opcode;
  void* cookie;
};

struct IOEvents {  // CUfileIOEvents_t
  void* cookie;
  int status;
  std::size_t ret;
};
}  // namespace cufile

struct CuFileApi {
  void* lib = nullptr;
  std::string lib_name;
  cufile::Error (*DriverOpen)() = nullptr;
  cufile::Error (*DriverClose)() = nullptr;
  cufile::Error (*DriverGetProperties)(cufile::DrvProps*) = nullptr;
  cufile::Error (*HandleRegister)(cufile::Handle*, cufile::Descr*) = nullptr;
  void (*HandleDeregister)(cufile::Handle) = nullptr;
  cufile::Error (*BufRegister)(const void*, std::size_t, int) = nullptr;
  cufile::Error (*BufDeregister)(const void*) = nullptr;
  ssize_t (*Read)(cufile::Handle, void*, std::size_t, off_t, off_t) = nullptr;
  ssize_t (*Write)(cufile::Handle, const void*, std::size_t, off_t, off_t) = nullptr;
  // Optional: the batch API, and the parameter query of newer releases.
  cufile::Error (*BatchIOSetUp)(cufile::BatchHandle*, unsigned) = nullptr;
  cufile::Error (*BatchIOSubmit)(cufile::BatchHandle, unsigned, cufile::IOParams*, unsigned) = nullptr;
  cufile::Error (*BatchIOGetStatus)(cufile::BatchHandle, unsigned, unsigned*, cufile::IOEvents*, struct timespec*) = nullptr;
  void (*BatchIODestroy)(cufile::BatchHandle) = nullptr;
  cufile::Error (*GetParameterBool)(int, bool*) = nullptr;
  cufile::Error (*GetVersion)(int*) = nullptr;

  bool has_batch() const { return BatchIOSetUp && BatchIOSubmit && BatchIOGetStatus && BatchIODestroy; }
};

// What cuFile name a code has, with cufile.h's wording.
std::string cufile_error_text(int code);
// Text for a negative cuFileRead/cuFileWrite result (-1 with errno, or -cuFile code).
std::string cufile_io_error_text(ssize_t result, int saved_errno);

// Loads libcufile once per process; nullptr with `why` filled when it cannot.
const CuFileApi* load_cufile(std::string& why);

// Whether cuFile moves data with true GPUDirect DMA (nvidia-fs or PCI P2PDMA) or in
// compatibility mode (POSIX I/O through its own bounce buffers), and why we think so.
struct CompatInfo {
  std::optional<bool> compat;  // empty when it could not be told
  std::string reason;
  unsigned nvfs_major = 0, nvfs_minor = 0;
  int version = 0;  // cuFileGetVersion, when present
};
// Call after cuFileDriverOpen succeeded.
CompatInfo query_compat_mode(const CuFileApi& api);

// An open cuFile driver and a registered file handle, for one measurement.
class CuFileSession {
public:
  // Throws InputError for what this machine cannot run (no library, driver open
  // failed, handle registration refused: 5027 without a udev database, and so on).
  CuFileSession(int fd, std::string_view xfer_name, bool need_batch);
  ~CuFileSession();
  CuFileSession(const CuFileSession&) = delete;
  CuFileSession& operator=(const CuFileSession&) = delete;

  const CuFileApi& api() const { return *api_; }
  cufile::Handle handle() const { return handle_; }
  const CompatInfo& compat() const { return compat_; }

private:
  const CuFileApi* api_ = nullptr;
  cufile::Handle handle_ = nullptr;
  bool driver_open_ = false;
  CompatInfo compat_;
};

}  // namespace iowall::measure
