// The flit arithmetic behind `iowall cxl flit` (cxl_flit): what each CXL.mem message
// costs on one link's flits, alone and streaming, and the read payload ceiling that
// follows (64 B of data per DRS message, link kept busy).
#pragma once
#include <string>
#include <vector>

#include "models/cxl/cxl_flit.hpp"
#include "sim/config/study.hpp"

namespace iowall::cxl {

struct FlitStudy {
  struct Config {
    LinkConfig link;
  };
  struct Row {
    std::string message;
    Message m;
    i64 flits_alone = 0;        // flits the message takes on an idle link
    double wire_bytes = 0;      // bytes per message in a saturated stream of it
  };
  struct Result final : StudyResult {
    Config config;
    std::vector<Row> rows;
    Bandwidth ceiling;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

}  // namespace iowall::cxl
