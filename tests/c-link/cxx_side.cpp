// The C++ half of a mixed program: a C-callable function that uses the
// standard library.
#include <algorithm>
#include <string>
#include <vector>

extern "C" int c_weight(const char *word);

extern "C" int cxx_total(const char *const *words, int n) {
    std::vector<std::string> v(words, words + n);
    std::sort(v.begin(), v.end());
    int total = 0;
    for (const auto &w : v) total = total * 3 + c_weight(w.c_str());
    return total;
}
