// A key of three pointers for the caches looked up on every I/O (routes by their ends, a
// stacked store's member routes by its caller's): compared by value, hashed by mixing the
// addresses.
#pragma once
#include <cstddef>
#include <cstdint>

namespace iowall {

struct PointerTriple {
  const void* a;
  const void* b;
  const void* c;
  bool operator==(const PointerTriple&) const = default;
};

struct HashPointers {
  std::size_t operator()(const PointerTriple& k) const {
    const auto mix = [](std::size_t h, const void* p) {
      return (h ^ reinterpret_cast<std::uintptr_t>(p)) * 0x9E3779B97F4A7C15ULL;
    };
    return mix(mix(mix(0, k.a), k.b), k.c);
  }
};

}  // namespace iowall
