/* gimso-test
 * expect: error indirect branch to non-label
 * line: 30
 * stdout:
 * | labels: 3 1 2
 * | neighbour: 2
 */
#include <stdio.h>

/* A computed goto is only ever a jump to one of its own function's labels:
 * a label address taken in another function (undefined behaviour in C) is
 * refused, not turned into a jump somewhere in this function. */
static void *neighbour_label;

__attribute__((noinline)) static int neighbour(int i) {
    static void *own[] = {&&x, &&y};
    neighbour_label = own[1];
    goto *own[i & 1];
x:
    return 1;
y:
    return 2;
}

static void *volatile slot;

__attribute__((noinline)) static int dispatch(int i, void *foreign) {
    static void *table[] = {&&one, &&two, &&three};
    slot = foreign ? foreign : table[i % 3];
    goto *slot; /* BUG */
one:
    return 1;
two:
    return 2;
three:
    return 3;
}

int main(void) {
    printf("labels: %d %d %d\n", dispatch(2, 0), dispatch(0, 0), dispatch(1, 0));
    printf("neighbour: %d\n", neighbour(1));
    fflush(stdout);
    return dispatch(0, neighbour_label);
}
