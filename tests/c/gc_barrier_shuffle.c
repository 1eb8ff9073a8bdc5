/* gimso-test
 * expect: run
 * env: GIMSO_GC_THRESHOLD=64K GIMSO_GC_VERIFY=1
 * stdout:
 * | cells intact: 8192 of 8192
 */
/* The store barrier skips a pointer store when the stored object's header
 * carries the current marking epoch. Here references to long-lived cells
 * move between holders while the collector runs a few hundred cycles: a
 * reference moved out of a holder not yet traced into one already traced
 * is found only through the barrier. A cell that is left untouched for many
 * cycles and then moved tests that no stale epoch passes for the current
 * one (GIMSO_GC_VERIFY checks after every marking that no marked holder
 * names an unmarked cell; a cell freed too early would also fail the final
 * check). Verified to fail with the collector's epoch stamps left out. */
#include <stdio.h>
#include <stdlib.h>

#define HOLDERS 256
#define SLOTS 64
#define CELLS (HOLDERS * SLOTS / 2)

struct cell {
    long index;
    long check;
};

static struct cell **holders[HOLDERS];
static void *volatile sink;

static unsigned next(unsigned *x) {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

int main(void) {
    for (int h = 0; h < HOLDERS; h++)
        holders[h] = calloc(SLOTS, sizeof(struct cell *));
    /* Cells fill the first half of every holder. */
    for (int i = 0; i < CELLS; i++) {
        struct cell *c = malloc(sizeof *c);
        c->index = i;
        c->check = i * 7 + 1;
        holders[i / (SLOTS / 2)][i % (SLOTS / 2)] = c;
    }
    unsigned x = 2463534242u;
    for (int round = 0; round < 400000; round++) {
        for (int k = 0; k < 8; k++)
            sink = malloc(64);
        for (int k = 0; k < 4; k++) {
            struct cell **from = holders[next(&x) % HOLDERS];
            struct cell **to = holders[next(&x) % HOLDERS];
            int i = next(&x) % SLOTS, j = next(&x) % SLOTS;
            if (from[i] && !to[j]) {
                to[j] = from[i];
                from[i] = NULL;
            }
        }
    }
    long intact = 0;
    for (int h = 0; h < HOLDERS; h++)
        for (int s = 0; s < SLOTS; s++) {
            struct cell *c = holders[h][s];
            if (c && c->check == c->index * 7 + 1)
                intact++;
        }
    printf("cells intact: %ld of %d\n", intact, CELLS);
    return 0;
}
