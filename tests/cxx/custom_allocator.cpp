/* gimso-test
 * expect: run
 * stdout:
 * | vector sum 999, map size 100, list size 10, string 1000
 * | nodes allocated at least 110: 1
 * | balanced 1
 */
// A stateful allocator used by vector, map and basic_string; rebinding
// for node-based containers; allocation counts balance.
#include <cstdio>
#include <cstdlib>
#include <list>
#include <map>
#include <string>
#include <vector>

struct Stats { long allocs = 0, frees = 0, bytes = 0; };

template <class T> struct Counting {
    using value_type = T;
    Stats *stats;
    explicit Counting(Stats *s) : stats(s) {}
    template <class U> Counting(const Counting<U> &o) : stats(o.stats) {}
    T *allocate(size_t n) {
        stats->allocs++;
        stats->bytes += n * sizeof(T);
        return static_cast<T *>(std::malloc(n * sizeof(T)));
    }
    void deallocate(T *p, size_t) {
        stats->frees++;
        std::free(p);
    }
    template <class U> bool operator==(const Counting<U> &o) const { return stats == o.stats; }
    template <class U> bool operator!=(const Counting<U> &o) const { return stats != o.stats; }
};

int main() {
    Stats s;
    {
        std::vector<int, Counting<int>> v{Counting<int>(&s)};
        for (int i = 0; i < 1000; i++) v.push_back(i);
        std::map<int, int, std::less<int>, Counting<std::pair<const int, int>>> m{Counting<std::pair<const int, int>>(&s)};
        for (int i = 0; i < 100; i++) m[i] = i;
        std::list<double, Counting<double>> l{Counting<double>(&s)};
        for (int i = 0; i < 10; i++) l.push_back(i);
        using Str = std::basic_string<char, std::char_traits<char>, Counting<char>>;
        Str str{Counting<char>(&s)};
        for (int i = 0; i < 100; i++) str += "more text ";
        printf("vector sum %ld, map size %zu, list size %zu, string %zu\n", (long)v[999] + v[0], m.size(), l.size(), str.size());
        printf("nodes allocated at least 110: %d\n", s.allocs >= 110);
    }
    printf("balanced %d\n", s.allocs == s.frees);
}
