// How a restore brings back the state every data-parallel replica holds (the weights
// below ZeRO-3, the optimizer state at ZeRO-0), chosen by name (`--restore`):
//   read-all             every rank reads everything it holds from storage, so each
//                        replica re-reads the replicated shards: storage serves dp copies
//                        (what torch.load or a DCP load on every rank does);
//   read-once-broadcast  every byte of the checkpoint is read once, by the rank that wrote
//                        it (`--replicated`: DP rank 0 of each group, or each replica its
//                        share), then sent to the other replicas over the compute fabric
//                        (sim/plan/restore_broadcast.hpp has the cost model).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/plan/checkpoint_state.hpp"

namespace iowall::plan {

enum class RestoreMode { read_all, read_once_broadcast };
const char* name(RestoreMode m);
const std::vector<std::string>& restore_mode_names();
// Throws InputError naming `option` (with the close names) for an unknown mode.
RestoreMode parse_restore_mode(const std::string& text, const std::string& option);
// The bytes each rank reads from storage on a restore in this mode.
const std::vector<std::int64_t>& restore_read_bytes(RestoreMode m, const checkpoint::ShardPlan& shards);

}  // namespace iowall::plan
