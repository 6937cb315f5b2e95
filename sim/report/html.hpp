// Small HTML building blocks for the report: escaping, tables, key-value lists.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace iowall::html {

std::string escape(const std::string& text);
// A table; headers carry their units ("throughput (GB/s)"); cells are escaped.
// The first `left_columns` columns are names (left-aligned); other cells that start with a
// number are right-aligned.
std::string table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                  std::size_t left_columns = 1);
// A definition list of (label, value) pairs, escaped.
std::string facts(const std::vector<std::pair<std::string, std::string>>& items);
std::string paragraph(const std::string& text, const std::string& css_class = {});

}  // namespace iowall::html
