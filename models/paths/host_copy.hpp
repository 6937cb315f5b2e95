// Routes the host-side paths share: a CPU copy (one core at its memcpy rate, host
// memory crossed twice: read and write) and a GPU copy engine's DMA to or from host
// memory (cudaMemcpy).
#pragma once
#include "models/gpu/gpu.hpp"
#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

inline Route memcpy_route(CpuSocket& cpu, Dram& dram) {
  Route r;
  Hop core;
  core.server = &cpu.core_server();
  core.bandwidth = cpu.memcpy_per_core;
  core.label = cpu.name() + " memcpy core";
  Hop mem = dram.access_hop();
  mem.bandwidth = scale(dram.bandwidth, 1, 2);  // every byte is read and written
  mem.label = dram.name() + " memcpy";
  r.hops = {core, mem};
  r.devices = {cpu.name(), dram.name()};
  return r;
}

// Host memory -> GPU (reads) or GPU -> host memory (writes) through a copy engine.
inline const Route& gpu_copy_route(PathEnv& env, Gpu& gpu, Dram& dram, bool to_gpu) {
  return to_gpu ? env.route(dram, gpu, {gpu.copy_engine_hop()}) : env.route(gpu, dram, {gpu.copy_engine_hop()});
}

}  // namespace iowall
