/* gimso-test
 * expect: error use after free
 * line: 13
 * stdout:
 * | ~Widget 3
 */
// Deleting an object twice when it has a destructor: the second delete
// runs the destructor on the freed object first, which reads it.
#include <cstdio>

struct Widget {
    int id;
    ~Widget() { printf("~Widget %d\n", id); } /* BUG */
};

int main() {
    Widget *w = new Widget{3};
    Widget *alias = w;
    delete w;
    delete alias;
}
