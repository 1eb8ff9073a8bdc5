/* gimso-test
 * expect: error out-of-bounds read
 * line: 13
 */
// Dereferencing end(): one past the last element of a vector whose
// buffer holds exactly its elements.
#include <cstdio>
#include <vector>

int main() {
    std::vector<int> v{1, 2, 3};
    auto it = v.end();
    printf("%d\n", *it); /* BUG */
}
