/* gimso-test
 * expect: run
 * stdout:
 * | ~Cell 2
 * | ~Cell 1
 * | ~Cell 0
 * | ~Cell 9
 * | done
 */
// new[] with delete[] and new with delete run cleanly; a new[]/delete
// mismatch over a trivially destructible type allocates and frees the
// same way and is not reported (docs/cxx.md).
#include <cstdio>

struct Cell {
    int v = 0;
    ~Cell() { printf("~Cell %d\n", v); }
};

int main() {
    Cell *cells = new Cell[3];
    for (int i = 0; i < 3; i++) cells[i].v = i;
    delete[] cells;
    Cell *one = new Cell;
    one->v = 9;
    delete one;
    int *ints = new int[4];
    ints[3] = 1;
    delete ints; // mismatched, but int needs no destructor and no count
    printf("done\n");
}
