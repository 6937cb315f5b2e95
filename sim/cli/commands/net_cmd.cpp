// `iowall net headroom|skid|spread|incast|multipath`: the fabric studies of models/net
// (net_headroom, net_skid, net_spread, net_incast, net_multipath), run by name. Their
// options and `--param key=value` (units in the value, as in JSON) are the studies'
// parameters, read with their sources; `iowall models net_incast` lists them.
#include "sim/cli/command.hpp"
#include "sim/cli/option_values.hpp"
#include "sim/cli/study_options.hpp"

namespace iowall {
namespace {

// A subcommand running `study`, with the options every fabric study takes.
struct Sub {
  std::shared_ptr<StudyOptions> o;
  CLI::App* cmd;
};
Sub fabric_command(CLI::App& net, const char* name, const char* help, const char* study,
                                             bool runs) {
  auto o = std::make_shared<StudyOptions>(study, std::string("iowall net ") + name);
  CLI::App* cmd = net.add_subcommand(name, help);
  o->text(*cmd, "--rate", "link rate (e.g. \"100 Gb/s\")");
  o->text(*cmd, "--cable", "cable length of every link (e.g. \"100 m\")");
  if (runs) {
    o->text(*cmd, "--duration", "simulated time");
    o->seed(*cmd, "random seed (ECN marking)");
  }
  o->params(*cmd, "fabric parameter key=value, e.g. xoff=\"512 KB\" or dcqcn=false");
  o->outputs(*cmd);
  cmd->callback([o] { o->run(); });
  return {o, cmd};
}

void setup_net(CLI::App& root, CliState&) {
  CLI::App* net = root.add_subcommand("net", "fabric experiments: PFC headroom and skid, spreading, DCQCN incast");
  net->require_subcommand(1);

  const auto [h, hc] = fabric_command(*net, "headroom", "PFC headroom from the 802.1Qbb delay terms", "net_headroom", false);
  h->text(*hc, "--mtu", "largest frame (e.g. \"9216 B\")");

  const auto [s, sc] = fabric_command(*net, "skid", "simulated bytes after XOFF vs the headroom formula", "net_skid", true);
  s->integer(*sc, "--drain", "egress is this many times slower than the sender");

  const auto [p, pc] = fabric_command(*net, "spread", "PAUSE spreading upstream to a flow that shares no bottleneck", "net_spread",
                          true);
  p->text(*pc, "--from", "start of the measurement window");
  p->text(*pc, "--uplink", "switch-to-switch link rate");
  p->text(*pc, "--slow", "the slow receiver's link rate");

  const auto [i, ic] = fabric_command(*net, "incast", "N DCQCN senders into one receiver through one switch", "net_incast", true);
  i->text(*ic, "--from", "start of the measurement window");
  i->integer(*ic, "--senders", "senders");
  i->text(*ic, "--window", "window for the convergence test");
  i->number(*ic, "--tolerance", "relative distance from an equal split")->check(finite_number());

  const auto [m, mc] = fabric_command(*net, "multipath", "ECMP flow hashing (RoCEv2) vs packet spraying (Ultra Ethernet)",
                          "net_multipath", true);
  m->text(*mc, "--from", "start of the measurement window");
  m->integer(*mc, "--senders", "senders on one leaf");
  m->integer(*mc, "--spines", "spine switches");
  m->text(*mc, "--uplink", "leaf-spine link rate");
  m->text(*mc, "--pattern", "permutation or incast");
  m->text(*mc, "--mode", "ecmp or spray");
}

}  // namespace

IOWALL_REGISTER_COMMAND(38, setup_net);

}  // namespace iowall
