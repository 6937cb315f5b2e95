// The text a person reads in ten seconds, and the CSV rows, from a run's result JSON.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace iowall {

std::string run_table(const nlohmann::json& result);
std::string run_csv(const nlohmann::json& result);

}  // namespace iowall
