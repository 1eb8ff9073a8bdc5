/* gimso-test
 * expect: error double free
 * line: 19
 * stdout:
 * | 3
 */
// Deleting the same object twice.
#include <cstdio>

struct Widget {
    int id;
};

int main() {
    Widget *w = new Widget{3};
    Widget *alias = w;
    printf("%d\n", w->id);
    delete w;
    delete alias; /* BUG */
}
