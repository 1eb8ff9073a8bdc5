/* gimso-test
 * expect: error use after free
 * line: 14
 */
#include <stdio.h>
#include <stdlib.h>

struct counter {
    int hits;
    int misses;
};

__attribute__((noinline)) void hit(struct counter *c) {
    c->hits++; /* BUG */
}

int main(void) {
    struct counter *c = calloc(1, sizeof *c);
    hit(c);
    printf("hits %d\n", c->hits);
    free(c);
    hit(c);
    printf("after %d\n", c->hits);
    return 0;
}
