/* gimso-test
 * expect: error invalid free of interior pointer
 * line: 19
 * stdout:
 * | 2
 */
// delete of a pointer into the middle of an object (a member of it).
#include <cstdio>

struct Pair {
    int first;
    int second;
};

int main() {
    Pair *p = new Pair{1, 2};
    int *inner = &p->second;
    printf("%d\n", *inner);
    delete inner; /* BUG */
}
