#include "models/host/cpu_socket.hpp"

#include <sstream>

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/core/quote.hpp"

namespace iowall {

CpuSocket::CpuSocket(const Params& p, SimContext& ctx) : Device(p, ctx) {
  cores_ = std::make_unique<Server>(*this, "cores", static_cast<int>(cores));
  cores_->set_carries("CPU work");
  // "C1 2us 2us, C1E 10us 20us": each state a name, an exit latency and a target residency.
  std::stringstream list(idle_states);
  std::string item;
  while (std::getline(list, item, ',')) {
    std::stringstream words(item);
    std::string name, exit, residency;
    words >> name >> exit >> residency;
    if (name.empty()) continue;
    IdleState st{name, {}, {}};
    const ParseResult a = parse_time(exit, st.exit_latency), b = parse_time(residency, st.target_residency);
    if (!a.ok || !b.ok || residency.empty())
      p.fail("idle_states", fmt::format("\"{}\" is not NAME EXIT RESIDENCY (e.g. \"C1E 10us 20us\")", quote_text(item, 60)));
    if (!states_.empty() && st.target_residency < states_.back().target_residency)
      p.fail("idle_states", "states go from shallow to deep: target residencies may not decrease");
    states_.push_back(st);
  }
}

const IdleState* CpuSocket::idle_state(Time predicted, int iowaiters) const {
  const Time latency_limit = predicted / (1 + idle_iowait_factor * iowaiters);
  const IdleState* best = nullptr;
  for (const IdleState& st : states_)
    if (st.target_residency <= predicted && st.exit_latency <= latency_limit) best = &st;
  return best;
}

Time IdleCore::wake(const CpuSocket& cpu, Time now, int iowaiters) {
  if (!idle_since_.is_positive() || now <= idle_since_) {
    idle_since_ = Time{};
    return Time{};
  }
  // The governor chose the state when the core went idle, from what it predicted then.
  const IdleState* st = cpu.idle_state(predicted_, iowaiters);
  const Time idle = now - idle_since_;
  predicted_ = predicted_.is_zero() ? idle : (predicted_ * 3 + idle) / 4;
  idle_since_ = Time{};
  return st ? st->exit_latency : Time{};
}

void CpuSocket::spend(Time cost, InlineFunction<void()> done) {
  cores_->submit(cost, Time(0), {}, done);
}

IOWALL_REGISTER_DEVICE(CpuSocket, "cpu_socket", "CPU socket: cores for software costs and copies");
IOWALL_PRESET("device", "cpu_socket", "xeon_8480", "Intel Xeon Platinum 8480C (DGX H100), 56 cores",
              "Intel ARK; memcpy per core from figures.md host-memory rows scaled to Sapphire Rapids, with the range "
              "from the ~6 GB/s measured on Skylake-SP (figures.md) to 12 GB/s (assumed for newer cores) as its uncertainty "
              "(triangular)",
              R"j({"cores": 56, "frequency": "2.0 GHz", "memcpy_per_core": "10 GB/s (6 GB/s .. 12 GB/s)"})j");
IOWALL_PRESET("device", "cpu_socket", "epyc_7742", "AMD EPYC 7742 (DGX A100), 64 cores", "AMD datasheet",
              R"({"cores": 64, "frequency": "2.25 GHz", "memcpy_per_core": "9 GB/s"})");
IOWALL_PRESET("device", "cpu_socket", "xeon_8168", "Intel Xeon Platinum 8168 (DGX-2), 24 cores",
              "Intel ARK; ~6 GB/s single-thread memcpy on Skylake-SP (figures.md); idle states: intel_idle.c "
              "skx_cstates (C1 2/2 us, C1E 10/20 us, C6 133/600 us exit/residency), Linux's default with the "
              "intel_idle driver",
              R"({"cores": 24, "frequency": "2.7 GHz", "memcpy_per_core": "6 GB/s",
                  "idle_states": "C1 2us 2us, C1E 10us 20us, C6 133us 600us"})");

}  // namespace iowall
