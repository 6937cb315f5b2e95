// The fabric studies behind `iowall net`, registered by name (sim/config/study.hpp):
// PFC headroom from the 802.1Qbb delay terms (net_headroom), the simulated skid after
// XOFF (net_skid), PAUSE spreading to an innocent flow (net_spread), an incast of
// DCQCN or NSCC senders (net_incast), and ECMP against packet spraying on a leaf-spine
// fabric (net_multipath). Each reads the link rate, the cable and the fabric's
// parameters (buffer, PFC, ECN, DCQCN, NSCC) from one Params with their sources.
#pragma once
#include <string>
#include <vector>

#include "models/net/experiments.hpp"
#include "models/net/multipath.hpp"
#include "sim/config/study.hpp"

namespace iowall::net {

// What every fabric study reads: the link rate, the cable of every link and the
// fabric's parameters, checked together (XOFF plus headroom must fit the buffer).
struct FabricSetup {
  Bandwidth rate;
  double cable_m = 2;
  FabricConfig fabric;
  static FabricSetup read(const Params& p);
};

// A per-packet run's simulated time and the start of its measurement window.
struct RunSpan {
  Time duration, from;
  static RunSpan read(const Params& p, bool window);
};

struct HeadroomStudy {
  struct Config {
    FabricSetup setup;
    Bytes mtu;
  };
  struct Result final : StudyResult {
    Config config;
    Headroom headroom;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

struct SkidStudy {
  struct Config {
    FabricSetup setup;
    Time duration;
    int drain = 4;
  };
  struct Result final : StudyResult {
    Config config;
    SkidResult skid;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

struct SpreadStudy {
  struct Config {
    FabricSetup setup;
    RunSpan span;
    Bandwidth uplink, slow;
    std::string slow_text;  // as given, for the text
  };
  struct Result final : StudyResult {
    Config config;
    SpreadResult spread;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

struct IncastStudy {
  struct Config {
    FabricSetup setup;
    RunSpan span;
    int senders = 8;
    Time window;
    std::string window_text;  // as given, for the text
    double tolerance = 0.25;
  };
  struct Result final : StudyResult {
    Config config;
    IncastResult incast;
    Bytes headroom, reserve;  // PFC headroom of one ingress; (xoff + headroom) x senders
    bool guaranteed = false;  // lossless by construction
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

struct MultipathStudy {
  struct Config {
    FabricSetup setup;
    MultipathRun run;
    std::string pattern, mode;  // as named
  };
  struct Result final : StudyResult {
    Config config;
    MultipathResult multipath;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

}  // namespace iowall::net
