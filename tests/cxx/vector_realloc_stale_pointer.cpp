/* gimso-test
 * expect: error use after free
 * line: 15
 */
// A pointer to a vector element kept across push_back: the vector moves
// its elements to a bigger buffer and frees the old one, so the saved
// pointer reads freed memory.
#include <cstdio>
#include <vector>

int main() {
    std::vector<int> v{1, 2, 3};
    int *first = &v[0];
    for (int i = 0; i < 100; i++) v.push_back(i);
    printf("%d\n", *first); /* BUG */
}
