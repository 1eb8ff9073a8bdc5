/* gimso-test
 * expect: error use after free
 * line: 16
 */
// c_str() of a string that has died: the characters were freed with it.
#include <cstdio>
#include <string>

static const char *name_of(int id) {
    std::string s = "a long generated name for record number " + std::to_string(id);
    return s.c_str();
}

int main() {
    const char *p = name_of(7);
    printf("%c\n", p[0]); /* BUG */
}
