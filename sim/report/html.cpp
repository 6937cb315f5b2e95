#include "sim/report/html.hpp"

namespace iowall::html {

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {
// Numbers (with their unit, as in "1.2 GB/s" or "-3.1") align right; names and notes left.
bool numeric(const std::string& cell) {
  std::size_t i = cell[0] == '+' || cell[0] == '-' ? 1 : 0;
  return i < cell.size() && cell[i] >= '0' && cell[i] <= '9';
}
}  // namespace

std::string table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                  std::size_t left_columns) {
  std::string s = "<table>\n<thead><tr>";
  for (const auto& h : headers) s += "<th>" + escape(h) + "</th>";
  s += "</tr></thead>\n<tbody>\n";
  for (const auto& row : rows) {
    s += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i)
      s += (i < left_columns || row[i].empty() || !numeric(row[i]) ? "<td>" : "<td class=\"num\">") + escape(row[i]) + "</td>";
    s += "</tr>\n";
  }
  return s + "</tbody>\n</table>\n";
}

std::string facts(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string s = "<dl class=\"facts\">\n";
  for (const auto& [k, v] : items) s += "<dt>" + escape(k) + "</dt><dd>" + escape(v) + "</dd>\n";
  return s + "</dl>\n";
}

std::string paragraph(const std::string& text, const std::string& css_class) {
  return (css_class.empty() ? "<p>" : "<p class=\"" + css_class + "\">") + escape(text) + "</p>\n";
}

}  // namespace iowall::html
