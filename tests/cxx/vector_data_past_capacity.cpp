/* gimso-test
 * expect: error out-of-bounds write
 * line: 17
 */
// Writing through data() past the vector's capacity: beyond the buffer
// the vector allocated.
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
    (void)argv;
    std::vector<int> v;
    v.reserve(8);
    v.resize(4);
    int *p = v.data();
    size_t i = v.capacity() + (size_t)argc - 1;
    p[i] = 1; /* BUG */
    printf("not reached\n");
}
