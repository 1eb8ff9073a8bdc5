// std::string building, sorting and deduplicating half a million strings;
// std::string_view scanning.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

int main() {
    std::vector<std::string> v;
    v.reserve(500000);
    unsigned x = 7;
    for (int i = 0; i < 500000; i++) {
        x = x * 1664525u + 1013904223u;
        std::string s = "key-" + std::to_string(x % 100000) + "-";
        s.append(x % 17, 'a' + x % 26);
        v.push_back(std::move(s));
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    size_t dashes = 0, total = 0;
    for (std::string_view s : v) {
        total += s.size();
        for (size_t p = s.find('-'); p != std::string_view::npos; p = s.find('-', p + 1)) dashes++;
    }
    printf("%zu %zu %zu %s\n", v.size(), total, dashes, v[v.size() / 2].c_str());
}
