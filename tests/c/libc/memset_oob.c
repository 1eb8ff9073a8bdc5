/* gimso-test
 * expect: error out-of-bounds write
 * line: 16
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct grid {
    int w, h;
    unsigned char *cells;
};

__attribute__((noinline)) void clear(struct grid *g) {
    /* Off by one row. */
    memset(g->cells, 0, (size_t)g->w * (g->h + 1)); /* BUG */
}

int main(void) {
    struct grid g = {8, 8, NULL};
    g.cells = malloc(64);
    clear(&g);
    printf("%d\n", g.cells[63]);
    return 0;
}
