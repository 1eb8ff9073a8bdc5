/* gimso-test
 * expect: error use after free
 * line: 14
 */
// Using a map iterator after erasing its element: the node was freed.
#include <cstdio>
#include <map>
#include <string>

int main() {
    std::map<int, std::string> m{{1, "one"}, {2, "two"}, {3, "three"}};
    auto it = m.find(2);
    m.erase(it);
    printf("%d\n", it->first); /* BUG */
}
