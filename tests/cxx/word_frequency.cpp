/* gimso-test
 * expect: run
 * stdout:
 * | alpha 2500
 * | epsilon 1250
 * | gamma 1250
 */
// A small text pipeline: read a generated document through an
// istringstream, normalise words, count them in a map, rank them with a
// sorted vector, and print the top entries.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

int main() {
    const char *vocab[] = {"alpha", "Beta", "gamma!", "delta,", "ALPHA", "beta", "epsilon", "gamma"};
    std::string doc;
    for (int i = 0; i < 5000; i++) {
        doc += vocab[(i * i + 3 * i) % 8];
        doc += (i % 13 == 0) ? "\n" : " ";
    }
    std::istringstream in(doc);
    std::map<std::string, int> counts;
    std::string w;
    while (in >> w) {
        std::string clean;
        for (char c : w)
            if (std::isalpha(static_cast<unsigned char>(c))) clean += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (!clean.empty()) counts[clean]++;
    }
    std::vector<std::pair<std::string, int>> ranked(counts.begin(), counts.end());
    std::sort(ranked.begin(), ranked.end(), [](auto &a, auto &b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    for (auto &[word, n] : ranked) std::cout << word << ' ' << n << '\n';
}
