#include "measure/cufile_api.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "measure/options.hpp"
#include "measure/shared_library.hpp"
#include "sim/core/error.hpp"

namespace iowall::measure {
namespace {

// Layouts that must match cufile.h for the batch API to work.
static_assert(sizeof(cufile::IOParams) == 64);
static_assert(sizeof(cufile::IOEvents) == 24);
static_assert(sizeof(cufile::Error) == 8);

struct LoadedCufile {
  CuFileApi api;
  bool ok = false;
  std::string why;
};

LoadedCufile open_cufile() {
  LoadedCufile l;
  const SharedLibrary so = open_first({"libcufile.so.0", "libcufile.so"});
  l.api.lib = so.handle;
  l.api.lib_name = so.name;
  if (!l.api.lib) {
    l.why = "cuFile could not be loaded: " + so.tried;
    return l;
  }
  auto& a = l.api;
  bind_symbol(a.lib, "cuFileDriverOpen", a.DriverOpen);
  // cufile.h maps cuFileDriverClose to cuFileDriverClose_v2 in recent releases.
  bind_symbol(a.lib, "cuFileDriverClose_v2", a.DriverClose);
  if (!a.DriverClose) bind_symbol(a.lib, "cuFileDriverClose", a.DriverClose);
  bind_symbol(a.lib, "cuFileDriverGetProperties", a.DriverGetProperties);
  bind_symbol(a.lib, "cuFileHandleRegister", a.HandleRegister);
  bind_symbol(a.lib, "cuFileHandleDeregister", a.HandleDeregister);
  bind_symbol(a.lib, "cuFileBufRegister", a.BufRegister);
  bind_symbol(a.lib, "cuFileBufDeregister", a.BufDeregister);
  bind_symbol(a.lib, "cuFileRead", a.Read);
  bind_symbol(a.lib, "cuFileWrite", a.Write);
  bind_symbol(a.lib, "cuFileBatchIOSetUp", a.BatchIOSetUp);
  bind_symbol(a.lib, "cuFileBatchIOSubmit", a.BatchIOSubmit);
  bind_symbol(a.lib, "cuFileBatchIOGetStatus", a.BatchIOGetStatus);
  bind_symbol(a.lib, "cuFileBatchIODestroy", a.BatchIODestroy);
  bind_symbol(a.lib, "cuFileGetParameterBool", a.GetParameterBool);
  bind_symbol(a.lib, "cuFileGetVersion", a.GetVersion);
  if (!a.DriverOpen || !a.DriverClose || !a.HandleRegister || !a.HandleDeregister || !a.BufRegister ||
      !a.BufDeregister || !a.Read || !a.Write) {
    l.why = fmt::format("{} lacks one of the cuFile functions iowall needs", a.lib_name);
    return l;
  }
  l.ok = true;
  return l;
}

// cufile.json: CUFILE_ENV_PATH_JSON, else /etc/cufile.json. It allows // comments.
std::optional<nlohmann::json> read_cufile_json(std::string& path) {
  const char* env = std::getenv("CUFILE_ENV_PATH_JSON");
  path = env && *env ? env : "/etc/cufile.json";
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

std::optional<bool> json_bool(const nlohmann::json& j, const char* section, const char* key) {
  if (j.contains(section) && j[section].is_object() && j[section].contains(key) && j[section][key].is_boolean())
    return j[section][key].get<bool>();
  return std::nullopt;
}

}  // namespace

std::string cufile_error_text(int code) {
  switch (code) {
    case 0: return "success";
    case 5001: return "nvidia-fs driver is not loaded and compatibility mode is not allowed (allow_compat_mode in cufile.json)";
    case 5007: return "GPUDirect Storage is not supported on this platform";
    case 5008: return "GPUDirect Storage is not supported on this file";
    case 5009: return "GPUDirect Storage is not supported on this GPU";
    case 5011: return "CUDA driver API error";
    case 5018: return "unsupported file type";
    case 5019: return "unsupported file open flags";
    case 5020: return "the file was not opened with O_DIRECT";
    case 5022: return "invalid arguments";
    case 5025: return "driver or file access error";
    case 5026: return "driver is already open";
    case 5027: return "file descriptor is not registered";
    case 5029: return "GPU device not found";
    case 5030: return "internal error";
    case 5034: return "GPUDirect Storage disabled by configuration for this file";
    case 5035: return "failed to submit batch operation";
    case 5037: return "queue full for batch operation";
    case 5044: return "cuFile I/O error";
    case 5049: return "the batch API needs compatibility mode or GDS, and neither is available";
    default: return code > 5000 && code < 5100 ? "cuFile error" : "unknown error";
  }
}

std::string cufile_io_error_text(ssize_t result, int saved_errno) {
  if (result == -1) return std::strerror(saved_errno);
  const int code = static_cast<int>(-result);
  return fmt::format("{} (cuFile error {})", cufile_error_text(code), code);
}

const CuFileApi* load_cufile(std::string& why) {
  static const LoadedCufile loaded = open_cufile();
  why = loaded.why;
  return loaded.ok ? &loaded.api : nullptr;
}

CompatInfo query_compat_mode(const CuFileApi& api) {
  CompatInfo info;
  if (api.GetVersion) api.GetVersion(&info.version);
  bool have_props = false;
  cufile::DrvProps props{};
  if (api.DriverGetProperties && api.DriverGetProperties(&props).err == cufile::kSuccess) {
    have_props = true;
    info.nvfs_major = props.nvfs.major_version;
    info.nvfs_minor = props.nvfs.minor_version;
  }
  // The settings as cuFile itself reports them (newer releases), else as cufile.json says.
  std::optional<bool> allow, force, p2pdma;
  if (api.GetParameterBool) {
    bool v = false;
    if (api.GetParameterBool(1 /*ALLOW_COMPAT_MODE*/, &v).err == cufile::kSuccess) allow = v;
    if (api.GetParameterBool(2 /*FORCE_COMPAT_MODE*/, &v).err == cufile::kSuccess) force = v;
    if (api.GetParameterBool(7 /*USE_PCIP2PDMA*/, &v).err == cufile::kSuccess) p2pdma = v;
  }
  std::string json_path;
  if (!allow || !force) {
    if (auto j = read_cufile_json(json_path)) {
      if (!allow) allow = json_bool(*j, "properties", "allow_compat_mode");
      if (!allow) allow = json_bool(*j, "properties", "use_compat_mode");  // older key
      if (!force) force = json_bool(*j, "properties", "force_compat_mode");
      if (!p2pdma) p2pdma = json_bool(*j, "properties", "use_pci_p2pdma");
    }
  }
  const bool nvfs = have_props && (info.nvfs_major != 0 || info.nvfs_minor != 0);
  const bool nvme_p2p = have_props && (props.nvfs.dstatusflags & (1u << 11)) && p2pdma.value_or(false);
  if (force.value_or(false)) {
    info.compat = true;
    info.reason = "force_compat_mode is set";
  } else if (nvfs || nvme_p2p) {
    info.compat = false;
    info.reason = nvfs ? fmt::format("nvidia-fs {}.{} is loaded", info.nvfs_major, info.nvfs_minor)
                       : "PCI P2PDMA is enabled for NVMe";
  } else if (have_props) {
    info.compat = true;
    info.reason = fmt::format("nvidia-fs is not loaded and P2PDMA is not in use{}",
                              allow ? fmt::format(" (allow_compat_mode is {})", *allow) : "");
  } else {
    info.reason = "cuFileDriverGetProperties did not answer";
  }
  return info;
}

CuFileSession::CuFileSession(int fd, std::string_view xfer_name, bool need_batch) {
  std::string why;
  api_ = load_cufile(why);
  const std::string head = fmt::format("-x {} needs cuFile, but ", xfer_name);
  if (!api_) throw InputError(kWhere, "-x", head + why);
  if (need_batch && !api_->has_batch())
    throw InputError(kWhere, "-x", head + api_->lib_name + " has no batch API (cuFileBatchIOSubmit)");
  const cufile::Error open = api_->DriverOpen();
  if (open.err != cufile::kSuccess)
    throw InputError(kWhere, "-x", head + fmt::format("cuFileDriverOpen failed: {} (cuFile error {}{})",
                                                      cufile_error_text(open.err), open.err,
                                                      open.cu_err ? fmt::format(", CUDA driver error {}", open.cu_err) : ""));
  driver_open_ = true;
  compat_ = query_compat_mode(*api_);
  cufile::Descr d{};
  d.type = cufile::kHandleTypeOpaqueFd;
  d.handle.fd = fd;
  const cufile::Error reg = api_->HandleRegister(&handle_, &d);
  if (reg.err != cufile::kSuccess) {
    handle_ = nullptr;
    api_->DriverClose();
    driver_open_ = false;
    const std::string mode =
        compat_.compat ? fmt::format(" The driver opened in {} mode ({}).", *compat_.compat ? "compatibility" : "GDS",
                                     compat_.reason)
                       : std::string();
    if (reg.err == cufile::kHandleNotRegistered)
      throw InputError(kWhere, "-x",
                       head + "cuFileHandleRegister failed with 5027 (file descriptor is not registered). "
                              "cuFile looks up the file system of the file's block device in the udev database "
                              "(/run/udev/data, ID_FS_USAGE and ID_FS_TYPE); a VM or container without udev has none, "
                              "and cuFile then refuses the file even in compatibility mode (its log says "
                              "\"udev property not found\"). Run where udev manages the device, or have the "
                              "machine's owner provide the udev entry; iowall does not write it." + mode);
    throw InputError(kWhere, "-x", head + fmt::format("cuFileHandleRegister failed: {} (cuFile error {}).{}",
                                                      cufile_error_text(reg.err), reg.err, mode));
  }
}

CuFileSession::~CuFileSession() {
  if (handle_) api_->HandleDeregister(handle_);
  if (driver_open_) api_->DriverClose();
}

}  // namespace iowall::measure
