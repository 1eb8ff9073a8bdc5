/* gimso-test
 * expect: run
 * stdout:
 * | 1 9
 */
// The fix for writing past capacity: grow the vector first, then write
// within its size.
#include <cstdio>
#include <vector>

int main() {
    std::vector<int> v;
    v.reserve(8);
    v.resize(4);
    v.resize(v.capacity() + 1);
    int *p = v.data();
    p[v.size() - 1] = 1;
    printf("%d %zu\n", p[v.size() - 1], v.size());
}
