/* gimso-test
 * expect: error out-of-bounds read
 * line: 18
 */
#include <stdio.h>
#include <stdlib.h>

/* A bit-field store reads the storage unit first: the read faults. */

struct pixel {
    unsigned r : 5;
    unsigned g : 6;
    unsigned b : 5;
    unsigned alpha : 16;
};

__attribute__((noinline)) void set_green(struct pixel *px, int i) {
    px[i].g = 63; /* BUG */
}

int main(void) {
    struct pixel *px = calloc(4, sizeof *px);
    for (int i = 0; i <= 4; i++)
        set_green(px, i);
    printf("%u\n", px[0].g);
    return 0;
}
