// The RDMA studies behind `iowall rdma`, registered by name (sim/config/study.hpp):
// memory registration cost and seed 001's Registration Efficiency Ratio (rdma_reg),
// the I/O from which persistent GPU registration beats per-I/O host registration
// (rdma_crossover), and the HCA translation cache with many live buffers (rdma_mtt).
#pragma once
#include <string>
#include <vector>

#include "models/rdma/registration.hpp"
#include "models/rdma/translation_cache.hpp"
#include "sim/config/study.hpp"

namespace iowall::rdma {

struct RegStudy {
  struct Config {
    std::string memory;  // host or gpu
    RegistrationCost cost;
    RegistrationRun run;
  };
  struct Result final : StudyResult {
    Config config;
    RegistrationResult r, whole;  // the run; registering the whole buffer once
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

struct CrossoverStudy {
  struct Config {
    RegistrationCost host, gpu;
    Bytes io_size;
    std::vector<Bytes> buffers;
  };
  struct Row {
    Bytes buffer;
    Time gpu_registration;
    i64 crossover_io = 0;
  };
  struct Result final : StudyResult {
    Config config;
    std::vector<Row> rows;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

struct MttStudy {
  struct Config {
    std::string memory, order;
    TranslationCacheConfig cache;
    MttWorkload workload;  // its seed is the run's
  };
  struct Result final : StudyResult {
    Config config;
    MttResult r;
    Json to_json() const override;
    std::string to_text() const override;
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

}  // namespace iowall::rdma
