/* gimso-test
 * expect: run
 * stdout:
 * | a long generated name for record number 7
 */
// The fix for a dangling c_str(): return the string itself, and take
// c_str() while it lives.
#include <cstdio>
#include <string>

static std::string name_of(int id) {
    return "a long generated name for record number " + std::to_string(id);
}

int main() {
    std::string s = name_of(7);
    const char *p = s.c_str();
    printf("%s\n", p);
}
