#!/usr/bin/env bash
# Builds an `iowall` that has only the `measure` command, for a GPU node where the
# simulator's libraries (Boost, OpenMPI, spdlog, valijson) are not installed: it needs
# libfmt and liburing at run time, and loads CUDA and cuFile with dlopen as the full build does.
#   scripts/build-measure-only.sh OUT_DIR    (OUT_DIR gets iowall, libfmt.so.9 and liburing.so.2;
#                                             run it there with LD_LIBRARY_PATH=OUT_DIR)
set -euo pipefail
out=${1:?usage: build-measure-only.sh OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/obj"
# The measure-only binary embeds no scenario files.
cat > "$out/obj/embedded_none.cpp" <<'CPP'
#include "sim/config/embedded.hpp"
namespace iowall {
const std::vector<EmbeddedFile>& embedded_files() {
  static const std::vector<EmbeddedFile> none;
  return none;
}
}  // namespace iowall
CPP
srcs=("$root"/sim/cli/main.cpp "$root"/sim/cli/commands/{command_registry,measure_cmd}.cpp
      "$root"/sim/config/{json_file,json_limits}.cpp "$root"/sim/core/{atomic_file,histogram,interrupt,quote,suggest,units}.cpp
      "$out/obj/embedded_none.cpp")
for s in "$root"/measure/*.cpp; do
  case $(basename "$s") in calibrat*|validate*|fit.cpp|profile*) ;; *) srcs+=("$s") ;; esac
done
objs=()
for s in "${srcs[@]}"; do
  o="$out/obj/$(basename "$s" .cpp).o"
  g++ -DFMT_SHARED -I"$root" -O2 -DNDEBUG -std=c++20 -c "$s" -o "$o" &
  objs+=("$o")
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
done
wait
g++ -o "$out/iowall" "${objs[@]}" -lfmt -luring
for lib in libfmt.so.9 liburing.so.2; do cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')" "$out/$lib"; done
rm -rf "$out/obj"
