/* gimso-test
 * expect: error invalid free of global object
 * line: 13
 */
#include <stdio.h>
#include <stdlib.h>

static long table[8];

static int released;

__attribute__((noinline)) void release(void *p) {
    free(p); /* BUG */
    released++;
}

int main(void) {
    table[0] = 3;
    printf("%ld\n", table[0]);
    release(table);
    printf("released %d\n", released);
    return 0;
}
