/* gimso-test
 * expect: error invalid free of stack object
 * line: 14
 * stdout:
 * | releasing 1
 */
// delete of an object that was never allocated with new: a local.
#include <cstdio>

struct Widget {
    int id;
};

static void release(Widget *w) { delete w; } /* BUG */

int main() {
    Widget local{1};
    printf("releasing %d\n", local.id);
    release(&local);
}
