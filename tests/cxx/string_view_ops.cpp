/* gimso-test
 * expect: run
 * stdout:
 * | [padded text] 11
 * | <alpha><beta><><gamma>
 * | starts alpha 1, find gamma 12, compare 1
 * | copy beta
 * | 9 s
 */
// std::string_view: views into literals and strings, trimming, splitting.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

static std::string_view trim(std::string_view v) {
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    return v;
}

static std::vector<std::string_view> split(std::string_view v, char sep) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (;;) {
        size_t end = v.find(sep, start);
        out.push_back(v.substr(start, end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return out;
}

int main() {
    std::string_view lit = "   padded text   ";
    std::string_view t = trim(lit);
    printf("[%.*s] %zu\n", (int)t.size(), t.data(), t.size());
    std::string owner = "alpha,beta,,gamma";
    for (auto part : split(owner, ',')) printf("<%.*s>", (int)part.size(), part.data());
    printf("\n");
    std::string_view sv = owner;
    printf("starts alpha %d, find gamma %zu, compare %d\n", sv.substr(0, 5) == "alpha",
           sv.find("gamma"), sv.compare("alpha") > 0);
    std::string back(sv.substr(6, 4));
    printf("copy %s\n", back.c_str());
    constexpr std::string_view ce = "constexpr";
    static_assert(ce.size() == 9);
    printf("%zu %c\n", ce.size(), ce[3]);
}
