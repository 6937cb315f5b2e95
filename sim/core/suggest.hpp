// "Did you mean" for a misspelled name: the known names nearest to the given one within a
// small edit distance (Damerau-Levenshtein, ignoring case: a transposition costs one), and
// the names that hold it as one dash- or underscore-separated part ("mtbf" in "cluster-mtbf").
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace iowall {

// The closest known names, best first, at most three; none when nothing is close. A name
// is close when at most a third of its letters (at least one) differ.
std::vector<std::string> close_names(std::string_view word, const std::vector<std::string>& known);

// " (did you mean \"a\"?)", " (did you mean \"a\" or \"b\"?)", or "" when nothing is
// close; `quote` false writes the names bare (options: --mttf).
std::string did_you_mean(std::string_view word, const std::vector<std::string>& known, bool quote = true);

}  // namespace iowall
