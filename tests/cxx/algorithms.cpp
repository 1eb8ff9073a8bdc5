/* gimso-test
 * expect: run
 * stdout:
 * | sort: 0 1 2 3 4 5 6 7 8 9
 * | partial_sort first 3: 0 1 2
 * | nth_element 5th: 5
 * | 1b 1d 2a 2c 
 * | binary_search 7 1, 11 0
 * | lower_bound 4 at 4
 * | min 0 max 9
 * | count_if even 5, find_if >7 9
 * | squares: 81 16 49 1 64 4 36 9 25 0
 * | partition point 5
 * | rotate: 3 4 5 1 2
 * | reverse: 2 1 5 4 3
 * | abc acb bac bca cab cba 
 * | union: 1 3 4 5 6 7
 * | intersection: 3 5
 * | merge: 1 3 3 4 5 5 6 7
 * | unique: 1 3 4 5 6 7
 * | heap max 9
 * | all_of >=0 1 any_of >8 1 none_of <0 1
 * | fill+replace: 4 4 4 4 4
 * | equal 1 mismatch at 0
 * | big sorted 1, median 500004
 */
// <algorithm>: sorting, searching, partitioning, permutations, heaps and
// set operations.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

static void show(const char *what, const std::vector<int> &v) {
    printf("%s:", what);
    for (int x : v) printf(" %d", x);
    printf("\n");
}

int main() {
    std::vector<int> v{9, 4, 7, 1, 8, 2, 6, 3, 5, 0};
    std::vector<int> w = v;
    std::sort(w.begin(), w.end());
    show("sort", w);
    w = v;
    std::partial_sort(w.begin(), w.begin() + 3, w.end());
    printf("partial_sort first 3: %d %d %d\n", w[0], w[1], w[2]);
    w = v;
    std::nth_element(w.begin(), w.begin() + 5, w.end());
    printf("nth_element 5th: %d\n", w[5]);
    struct P { int key; char tag; };
    std::vector<P> ps{{2, 'a'}, {1, 'b'}, {2, 'c'}, {1, 'd'}};
    std::stable_sort(ps.begin(), ps.end(), [](P a, P b) { return a.key < b.key; });
    for (auto p : ps) printf("%d%c ", p.key, p.tag);
    printf("\n");
    std::sort(w.begin(), w.end());
    printf("binary_search 7 %d, 11 %d\n", std::binary_search(w.begin(), w.end(), 7),
           std::binary_search(w.begin(), w.end(), 11));
    printf("lower_bound 4 at %ld\n", (long)(std::lower_bound(w.begin(), w.end(), 4) - w.begin()));
    printf("min %d max %d\n", *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
    printf("count_if even %ld, find_if >7 %d\n", (long)std::count_if(v.begin(), v.end(), [](int x) { return x % 2 == 0; }),
           *std::find_if(v.begin(), v.end(), [](int x) { return x > 7; }));
    std::vector<int> sq;
    std::transform(v.begin(), v.end(), std::back_inserter(sq), [](int x) { return x * x; });
    show("squares", sq);
    auto mid = std::partition(w.begin(), w.end(), [](int x) { return x < 5; });
    printf("partition point %ld\n", (long)(mid - w.begin()));
    std::vector<int> r{1, 2, 3, 4, 5};
    std::rotate(r.begin(), r.begin() + 2, r.end());
    show("rotate", r);
    std::reverse(r.begin(), r.end());
    show("reverse", r);
    std::string perm = "abc";
    do printf("%s ", perm.c_str()); while (std::next_permutation(perm.begin(), perm.end()));
    printf("\n");
    std::vector<int> a{1, 3, 5, 7}, b{3, 4, 5, 6}, out;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    show("union", out);
    out.clear();
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    show("intersection", out);
    out.clear();
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    show("merge", out);
    out.erase(std::unique(out.begin(), out.end()), out.end());
    show("unique", out);
    std::make_heap(v.begin(), v.end());
    std::pop_heap(v.begin(), v.end());
    printf("heap max %d\n", v.back());
    printf("all_of >=0 %d any_of >8 %d none_of <0 %d\n",
           std::all_of(v.begin(), v.end(), [](int x) { return x >= 0; }),
           std::any_of(v.begin(), v.end(), [](int x) { return x > 8; }),
           std::none_of(v.begin(), v.end(), [](int x) { return x < 0; }));
    std::vector<int> filled(5);
    std::fill(filled.begin(), filled.end(), 3);
    std::replace(filled.begin(), filled.end(), 3, 4);
    show("fill+replace", filled);
    printf("equal %d mismatch at %ld\n", std::equal(a.begin(), a.end(), a.begin()),
           (long)(std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin()));
    std::vector<int> big(200000);
    for (size_t i = 0; i < big.size(); i++) big[i] = (int)((i * 2654435761u) % 1000003);
    std::sort(big.begin(), big.end());
    printf("big sorted %d, median %d\n", std::is_sorted(big.begin(), big.end()), big[big.size() / 2]);
}
