// A vendor library loaded at run time (the CUDA runtime, cuFile): the first of its sonames that
// dlopen finds, and its entry points by name, so that iowall builds and runs where it is absent
// and says which name failed and why.
#pragma once
#include <dlfcn.h>

#include <initializer_list>
#include <string>

namespace iowall::measure {

struct SharedLibrary {
  void* handle = nullptr;  // null where none of the names loaded
  std::string name;        // the soname that loaded
  std::string tried;       // where none loaded: each name with dlerror's reason, "; "-separated
};

// dlopen (RTLD_NOW | RTLD_LOCAL) of the first of `names` that loads.
inline SharedLibrary open_first(std::initializer_list<const char*> names) {
  SharedLibrary so;
  for (const char* name : names) {
    so.handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (so.handle) {
      so.name = name;
      so.tried.clear();
      return so;
    }
    const char* err = ::dlerror();
    so.tried += (so.tried.empty() ? "" : "; ") + std::string(name) + " (" + (err ? err : "not found") + ")";
  }
  return so;
}

// `fn` set to `lib`'s symbol `sym`, null where it lacks it; a missing name is appended to
// `missing` (", "-separated) where one is given.
template <typename F>
bool bind_symbol(void* lib, const char* sym, F& fn, std::string* missing = nullptr) {
  fn = reinterpret_cast<F>(::dlsym(lib, sym));
  if (!fn && missing) *missing += (missing->empty() ? "" : ", ") + std::string(sym);
  return fn != nullptr;
}

}  // namespace iowall::measure
