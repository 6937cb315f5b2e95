// `iowall report` and the commands' --report option: one self-contained HTML page
// for one or more results, written atomically.
#pragma once
#include <string>
#include <vector>

#include "sim/report/result_file.hpp"

namespace iowall {

// The whole page; the same results give the same bytes.
std::string html_report(const std::vector<ResultDoc>& docs);
// Throws InputError naming `option` when the report could not be written there (its
// directory does not exist), so commands can refuse before doing any work.
void check_report_path(const std::string& path, const std::string& option);
// Checks the path, renders, and writes the page atomically (no partial file on failure).
void write_html_report(const std::string& path, const std::vector<ResultDoc>& docs, const std::string& option);

}  // namespace iowall
