/* gimso-test
 * expect: run
 * stdout:
 * | 1
 * | 7
 */
// The fix for a pointer kept across push_back: take the element's address
// again after the vector may have grown (or reserve first).
#include <cstdio>
#include <vector>

int main() {
    std::vector<int> v{1, 2, 3};
    for (int i = 0; i < 100; i++) v.push_back(i);
    int *first = &v[0];
    printf("%d\n", *first);
    std::vector<int> w;
    w.reserve(200);
    w.push_back(7);
    int *kept = &w[0];
    for (int i = 0; i < 100; i++) w.push_back(i);
    printf("%d\n", *kept);
}
