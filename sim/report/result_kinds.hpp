// Result kinds written by layers above the report writers (the accuracy check, for one)
// register how to check a file's shape and how to draw its section of the HTML report,
// so `iowall report` reads them without sim/report including those layers.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/report/report_chart.hpp"
#include "sim/report/result_file.hpp"

namespace iowall::report {

struct ResultKind {
  // Throws InputError naming the file and pointer when `json` is not this kind's shape.
  std::function<void(const nlohmann::json& json, const std::string& file)> check_shape;
  // The report's section for one result of this kind.
  std::function<std::string(const ResultDoc& doc, Charts& charts)> section;
};

void register_result_kind(const std::string& kind, ResultKind k);
// The registered kind, or null.
const ResultKind* find_result_kind(const std::string& kind);
std::vector<std::string> registered_result_kinds();

struct ResultKindRegistrar {
  ResultKindRegistrar(const char* kind, ResultKind k) { register_result_kind(kind, std::move(k)); }
};

}  // namespace iowall::report
