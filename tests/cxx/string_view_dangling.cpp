/* gimso-test
 * expect: error use after free
 * line: 14
 */
// A string_view of a temporary string: the view outlives the characters.
#include <cstdio>
#include <string>
#include <string_view>

static std::string make(int n) { return std::string(40, 'x') + std::to_string(n); }

int main() {
    std::string_view v = make(5);
    printf("%c\n", v[0]); /* BUG */
}
