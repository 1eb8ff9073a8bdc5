/* gimso-test
 * expect: run
 * stdout:
 * | alpha=3 bravo=1 charlie=1 delta=2 echo=1 
 * | lower_bound(c) = charlie
 * | contains bravo 0, size 4
 * | insert alpha: 0 (value 3)
 * | alpha now 100
 * | b bb 
 * | 9 7 4 1 
 * | count(3) = 3
 * | count(3) after one erase = 2
 * | a aa bb ccc dddd 
 * | big: 10000 keys, first 0, last 10006, sum 50036578
 */
// Ordered associative containers: map, multimap, set, multiset, with a
// custom comparator and heterogeneous lookup.
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>

struct ByLength {
    bool operator()(const std::string &a, const std::string &b) const {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    }
};

int main() {
    std::map<std::string, int> m;
    const char *words[] = {"delta", "alpha", "charlie", "bravo", "alpha", "echo", "delta", "alpha"};
    for (const char *w : words) m[w]++;
    for (const auto &[k, v] : m) printf("%s=%d ", k.c_str(), v);
    printf("\n");
    auto lb = m.lower_bound("c");
    printf("lower_bound(c) = %s\n", lb->first.c_str());
    m.erase("bravo");
    printf("contains bravo %d, size %zu\n", (int)m.count("bravo"), m.size());
    auto [pos, inserted] = m.insert({"alpha", 100});
    printf("insert alpha: %d (value %d)\n", inserted, pos->second);
    m.insert_or_assign("alpha", 100);
    printf("alpha now %d\n", m.at("alpha"));

    std::multimap<int, std::string> mm{{2, "b"}, {1, "a"}, {2, "bb"}, {3, "c"}};
    auto range = mm.equal_range(2);
    for (auto it = range.first; it != range.second; ++it) printf("%s ", it->second.c_str());
    printf("\n");

    std::set<int, std::greater<>> s{4, 1, 9, 4, 7};
    for (int x : s) printf("%d ", x);
    printf("\n");
    std::multiset<int> ms{3, 1, 3, 3, 2};
    printf("count(3) = %zu\n", ms.count(3));
    ms.erase(ms.find(3));
    printf("count(3) after one erase = %zu\n", ms.count(3));

    std::set<std::string, ByLength> byLen{"ccc", "a", "bb", "aa", "dddd"};
    for (auto &x : byLen) printf("%s ", x.c_str());
    printf("\n");
    std::map<int, int> big;
    for (int i = 0; i < 10000; i++) big[(i * 7919) % 10007] = i;
    long total = 0;
    for (auto &[k, v] : big) total += k;
    printf("big: %zu keys, first %d, last %d, sum %ld\n", big.size(), big.begin()->first,
           big.rbegin()->first, total);
}
