/* gimso-test
 * expect: run
 * stdout:
 * | brown:1 dog:1 end:1 fox:1 jumps:1 lazy:1 over:1 quick:1 the:3 
 * | distinct points 407
 * | has (3,3) 1, has (40,0) 0
 * | after erasing odd x: 209
 * | m[77777] = 155554, load factor ok 1
 * | key 1 -> ab
 */
// Hash containers: unordered_map/set/multimap with std::hash and a user
// hash, rehashing, and erase during iteration. Output is sorted, since
// iteration order is unspecified.
#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

struct Point {
    int x, y;
    bool operator==(const Point &o) const { return x == o.x && y == o.y; }
};
struct PointHash {
    size_t operator()(const Point &p) const { return std::hash<int>()(p.x) * 31 + std::hash<int>()(p.y); }
};

int main() {
    std::unordered_map<std::string, int> counts;
    const char *text = "the quick brown fox jumps over the lazy dog the end";
    std::string word;
    for (const char *p = text;; p++) {
        if (*p == ' ' || *p == 0) {
            if (!word.empty()) counts[word]++;
            word.clear();
            if (!*p) break;
        } else {
            word += *p;
        }
    }
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end());
    for (auto &[w, n] : sorted) printf("%s:%d ", w.c_str(), n);
    printf("\n");

    std::unordered_set<Point, PointHash> pts;
    for (int i = 0; i < 1000; i++) pts.insert({i % 37, i % 11});
    printf("distinct points %zu\n", pts.size());
    printf("has (3,3) %d, has (40,0) %d\n", (int)pts.count({3, 3}), (int)pts.count({40, 0}));
    for (auto it = pts.begin(); it != pts.end();) {
        if (it->x % 2) it = pts.erase(it);
        else ++it;
    }
    printf("after erasing odd x: %zu\n", pts.size());

    std::unordered_map<int, int> m;
    m.reserve(10);
    for (int i = 0; i < 100000; i++) m[i] = i * 2;
    printf("m[77777] = %d, load factor ok %d\n", m[77777], m.load_factor() <= m.max_load_factor());
    std::unordered_multimap<int, char> mm{{1, 'a'}, {1, 'b'}, {2, 'c'}};
    std::string got;
    auto r = mm.equal_range(1);
    for (auto it = r.first; it != r.second; ++it) got += it->second;
    std::sort(got.begin(), got.end());
    printf("key 1 -> %s\n", got.c_str());
}
