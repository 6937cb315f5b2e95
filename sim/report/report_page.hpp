// The frame of the HTML report: one self-contained page (inline CSS, inline SVG
// charts, one small inline script and nothing fetched from the network).
#pragma once
#include <string>

namespace iowall::report {

// `body` is already HTML. The page's script checks, in the browser, that every chart
// plotted data and every image loaded, and records the outcome in
// <body data-check="ok"> (or "failed: ...", also logged with console.error).
std::string page(const std::string& title, const std::string& body);

}  // namespace iowall::report
