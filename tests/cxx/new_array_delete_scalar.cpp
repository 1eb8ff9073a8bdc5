/* gimso-test
 * expect: error invalid free of interior pointer
 * line: 21
 * stdout:
 * | 5
 */
// new[] of a class with a destructor, released with plain delete: the
// array's element count is stored before the first element, so delete
// frees a pointer into the middle of the allocation.
#include <cstdio>

struct Cell {
    int v = 0;
    ~Cell() {}
};

int main() {
    Cell *cells = new Cell[4];
    cells[1].v = 5;
    printf("%d\n", cells[1].v);
    delete cells; /* BUG */
}
