/* gimso-test
 * expect: error invalid free of stack object
 * line: 11
 */
#include <stdio.h>
#include <stdlib.h>

static int released;

__attribute__((noinline)) void release(void *p) {
    free(p); /* BUG */
    released++;
}

int main(void) {
    long local[4] = {1, 2, 3, 4};
    printf("%ld\n", local[3]);
    release(local);
    printf("released %d\n", released);
    return 0;
}
