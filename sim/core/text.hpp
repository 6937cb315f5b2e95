// Text helpers shared by the parsers of quantities, sysfs files and nvidia-smi's output.
#pragma once
#include <cctype>
#include <string_view>

namespace iowall {

// `s` without its leading and trailing white space (std::isspace: blanks, tabs, CR, LF).
// A view into `s`: it lives as long as the text it was taken from.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace iowall
