#include "models/net/ecn.hpp"

#include <fmt/format.h>

namespace iowall::net {

EcnConfig EcnConfig::read(const Params& p) {
  EcnConfig c;
  c.enabled = p.get_bool("ecn", true, "mark ECN at egress queues", "RFC 3168; DCQCN needs it");
  c.kmin = p.get_bytes("kmin", "400 KB", "queue below which nothing is marked; 0: marking may start with the first byte queued", "HPCC ns-3 configs, 100G");
  c.kmax = p.get_bytes("kmax", "1600 KB", "queue above which everything is marked", "HPCC ns-3 configs, 100G");
  c.pmax = p.get_number("pmax", 0.2, 0.0, 1.0, "marking probability at kmax", "HPCC ns-3 configs, 100G");
  c.at_dequeue = p.get_choice("mark_at", "dequeue", {"enqueue", "dequeue"}, "where the queue is compared with kmin/kmax",
                              "dequeue: the mark carries the queue as it is now, not as it was one queueing delay ago") ==
                 "dequeue";
  if (c.kmin.is_negative()) p.fail("kmin", "kmin must not be negative");
  if (c.kmax <= c.kmin) p.fail("kmax", "kmax must exceed kmin");
  if (!(c.pmax > 0 && c.pmax <= 1)) p.fail("pmax", fmt::format("pmax {} is out of range (0, 1]", c.pmax));
  return c;
}

double EcnConfig::probability(Bytes q) const {
  if (!enabled || q <= kmin) return 0;
  if (q >= kmax) return 1;
  // (pmax * excess) / span in double, in this order.
  return pmax * (q - kmin).bytes_value() / (kmax - kmin).bytes_value();
}

}  // namespace iowall::net
