/* gimso-test
 * expect: error out-of-bounds read
 * line: 22
 * stdout:
 * | int 6
 */
/* After a 4-byte read through a capability, a full check of another
 * address through it may skip testing that the object spans 4 bytes, but
 * not 32: a 32-byte read of a 16-byte object is still caught (without the
 * span test, `span - 32` would wrap and let it through). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long v4 __attribute__((vector_size(32), aligned(8)));

__attribute__((noinline)) long both(int *p, long i) {
    int x = p[0];
    printf("int %d\n", x);
    fflush(stdout);
    volatile v4 *q = (volatile v4 *)((char *)p + i);
    v4 v = *q; /* BUG */
    return x + v[0] + v[3];
}

int main(int argc, char **argv) {
    (void)argv;
    int *p = calloc(4, sizeof(int));
    *p = 6;
    printf("%ld\n", both(p, argc - 1));
    return 0;
}
