/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 */
// std::array indexed past its end with operator[] (no check in the
// library; the object's bounds catch it).
#include <array>
#include <cstdio>

int main(int argc, char **argv) {
    (void)argv;
    std::array<int, 4> a{1, 2, 3, 4};
    size_t i = 3 + (size_t)argc;
    a[i] = 5; /* BUG */
    printf("%d\n", a[0]);
}
