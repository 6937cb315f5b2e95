// The CXL part of a topology, simulated message by message: every "cxl" link gets a
// flit channel per direction, and a load or store becomes its CXL.mem messages
// crossing those channels and the switches on the way (M2S Req -> media -> S2M DRS;
// M2S RwD -> media -> S2M NDR). A load of a line another host caches also waits for
// the device's back-invalidate snoop to that host and its answer (BISnp/BIRsp).
// A request crosses the last link into the device only with one of the device's
// request slots (its credits): without one it waits at the port before that link
// (the switch, or the host when attached directly), and a slot freed for it takes
// the link's latency to come back as a credit.
#pragma once
#include <map>
#include <memory>
#include <vector>

#include "models/cxl/cxl_host.hpp"
#include "models/cxl/cxl_type3.hpp"
#include "models/cxl/flit_channel.hpp"
#include "sim/config/topology.hpp"

namespace iowall::cxl {

enum class MessageKind { req, rwd, drs, ndr, bisnp, birsp };

class CxlFabric {
public:
  using Done = InlineFunction<void()>;
  // `doc` is the topology's JSON (its "cxl" link objects are read again for their
  // flit layout); `file` names it in errors.
  CxlFabric(Topology& topology, const Json& doc, const std::string& file);
  ~CxlFabric();

  // A 64 B load by `host` from `device`; `holder` (may be null) caches the line and
  // must be snooped first. `done` runs when the data reaches the host's core.
  void load(CxlHost& host, CxlType3& device, CxlHost* holder, Done done);
  // A 64 B store; `done` runs when the completion reaches the host's core.
  void store(CxlHost& host, CxlType3& device, Done done);

  // The flit channel carrying bytes out of `device`'s port (null if none).
  const FlitChannel* channel_from(const Device& device) const;
  Topology& topology() { return topology_; }

private:
  struct Leg {
    FlitChannel* channel;
    Time after;  // link latency plus the next device's forwarding latency
    MessageBits bits;
  };
  using Legs = std::vector<Leg>;
  struct Txn {
    CxlHost* host;
    CxlType3* device;
    CxlHost* holder;
    Done done;
    bool write;
    int parts_left;  // a load answers once both the media and the snoop are done
    Time asked;      // when the request asked the device for a slot
  };
  struct Transit {
    const Legs* legs;
    std::size_t leg, end;
    MessageKind kind;
    Done done;
  };
  const Legs& legs(const Device& from, const Device& to);
  // Sends a message over legs [first, end) of `legs` (all of them by default).
  void send(const Legs& legs, MessageKind kind, Done done, std::size_t first = 0, std::size_t end = SIZE_MAX);
  void hop(std::uint32_t transit);
  void start(std::uint32_t txn);
  void at_last_port(std::uint32_t txn);
  void granted(std::uint32_t txn);
  void arrived(std::uint32_t txn);
  MessageKind request_kind(std::uint32_t txn) { return txns_[txn].write ? MessageKind::rwd : MessageKind::req; }
  void part_done(std::uint32_t txn);
  void finish(std::uint32_t txn);

  Topology& topology_;
  std::vector<std::unique_ptr<FlitChannel>> channels_;
  std::map<const Server*, std::pair<FlitChannel*, MessageBits>> by_server_;  // link channel -> flit channel
  std::map<std::pair<const Device*, const Device*>, Legs> legs_;
  SlotPool<Txn> txns_;
  SlotPool<Transit> transits_;
};

}  // namespace iowall::cxl
