#include "sim/core/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace iowall {
namespace {

std::string lower_case(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one
// substring), stopping early once every cell of a row exceeds `limit`.
std::size_t distance(const std::string& a, const std::string& b, std::size_t limit) {
  const std::size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    std::size_t row_min = cur[0];
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > limit) return limit + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

// Whether `word` is one of the parts of `name` split at '-' and '_' (leading dashes of
// an option name dropped from both).
bool is_part(const std::string& word, const std::string& name) {
  const std::string w = word.substr(word.find_first_not_of('-') == std::string::npos ? 0 : word.find_first_not_of('-'));
  if (w.size() < 3) return false;
  std::size_t start = name.find_first_not_of('-');
  while (start != std::string::npos && start < name.size()) {
    const std::size_t end = name.find_first_of("-_", start);
    if (name.compare(start, end == std::string::npos ? std::string::npos : end - start, w) == 0 &&
        (end == std::string::npos ? name.size() : end) - start == w.size())
      return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::vector<std::string> close_names(std::string_view word, const std::vector<std::string>& known) {
  const std::string w = lower_case(word);
  if (w.empty() || w.size() > 200) return {};
  const std::size_t letters = w.size() - std::min(w.size(), w.find_first_not_of('-'));
  const std::size_t limit = std::max<std::size_t>(1, letters / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& k : known) {
    const std::string kl = lower_case(k);
    if (kl == w) continue;
    const std::size_t d = distance(w, kl, limit);
    if (d <= limit) scored.emplace_back(d, k);
    else if (is_part(w, kl)) scored.emplace_back(limit + 1, k);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // The nearest names (ties all), then the names that hold the word as a part.
  std::vector<std::string> out;
  const std::size_t best = scored.empty() ? 0 : scored.front().first;
  for (const auto& [d, k] : scored)
    if ((d == best || d == limit + 1) && out.size() < 3 && std::find(out.begin(), out.end(), k) == out.end())
      out.push_back(k);
  return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& known, bool quote) {
  const std::vector<std::string> names = close_names(word, known);
  if (names.empty()) return "";
  std::string out = " (did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += quote ? "\"" + names[i] + "\"" : names[i];
  }
  return out + "?)";
}

}  // namespace iowall
