/* gimso-test
 * expect: run
 * stdout:
 * | sum 499500, capacity >= size: 1
 * | first 8: 0 7 14 21 28 35 42 49 (size 8)
 * | insert: 0 7 100 200 14 21 28 35 42 49 (size 10)
 * | erase: 200 14 21 28 35 42 49 (size 7)
 * | sorted: 14 21 28 35 42 49 200 (size 7)
 * | evens: 14 28 42 200 (size 4)
 * | reversed copy: 200 42 28 14 (size 4)
 * | assign: 9 9 9 (size 3)
 * | swapped: 9 9 9 (size 3)
 * | grid[2][3] = 11
 * | bits set: 24
 * | after flip: 46
 * | empty 1
 */
// std::vector: growth, insertion, erasure, sorting and vector<bool>.
#include <algorithm>
#include <cstdio>
#include <vector>

static void show(const char *what, const std::vector<int> &v) {
    printf("%s:", what);
    for (int x : v) printf(" %d", x);
    printf(" (size %zu)\n", v.size());
}

int main() {
    std::vector<int> v;
    for (int i = 0; i < 1000; i++) v.push_back(i * 7 % 1000);
    long sum = 0;
    for (int x : v) sum += x;
    printf("sum %ld, capacity >= size: %d\n", sum, v.capacity() >= v.size());
    v.resize(8);
    show("first 8", v);
    v.insert(v.begin() + 2, {100, 200});
    show("insert", v);
    v.erase(v.begin(), v.begin() + 3);
    show("erase", v);
    std::sort(v.begin(), v.end());
    show("sorted", v);
    v.erase(std::remove_if(v.begin(), v.end(), [](int x) { return x % 2; }), v.end());
    show("evens", v);
    std::vector<int> w(v.rbegin(), v.rend());
    show("reversed copy", w);
    w.assign(3, 9);
    show("assign", w);
    w.shrink_to_fit();
    v.swap(w);
    show("swapped", v);
    std::vector<std::vector<int>> grid(3, std::vector<int>(4));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) grid[r][c] = r * 4 + c;
    printf("grid[2][3] = %d\n", grid[2][3]);
    std::vector<bool> bits(70);
    for (size_t i = 0; i < bits.size(); i += 3) bits[i] = true;
    printf("bits set: %ld\n", (long)std::count(bits.begin(), bits.end(), true));
    bits.flip();
    printf("after flip: %ld\n", (long)std::count(bits.begin(), bits.end(), true));
    v.clear();
    printf("empty %d\n", v.empty());
}
