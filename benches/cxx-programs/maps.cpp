// std::map and std::unordered_map: a million inserts, lookups and erases
// of pseudo-random keys; node allocation and pointer chasing.
#include <cstdint>
#include <cstdio>
#include <map>
#include <unordered_map>

int main() {
    const int n = 1000000;
    std::map<uint32_t, uint32_t> tree;
    std::unordered_map<uint32_t, uint32_t> hash;
    uint32_t x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        tree[x % 2000003] += i;
        hash[x % 2000003] += i;
    }
    uint64_t hits = 0, sum = 0;
    x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        auto it = tree.find(x % 1999993);
        if (it != tree.end()) { hits++; sum += it->second; }
        auto h = hash.find(x % 2000003);
        if (h != hash.end()) sum += h->second;
    }
    for (uint32_t k = 0; k < 2000003; k += 3) { tree.erase(k); hash.erase(k); }
    printf("%zu %zu %llu %llu\n", tree.size(), hash.size(), (unsigned long long)hits, (unsigned long long)sum);
}
