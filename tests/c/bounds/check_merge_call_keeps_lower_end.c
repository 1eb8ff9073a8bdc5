/* gimso-test
 * expect: error out-of-bounds read
 * line: 32
 * stdout:
 * | inside 8
 */
/* After a call, an earlier check of q[0] still vouches that q is at or
 * above the object's start (only its end may have moved): a later q[1]
 * compares with the end only. An access below q is checked in full: q[-1]
 * inside the object passes, q[-2] before its start is reported. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void touch(long *q) {
    *q += 1;
}

__attribute__((noinline)) long inside(long *q) {
    long x = q[0];
    touch(q);
    return x + q[-1];
}

__attribute__((noinline)) long before(long *q, int really) {
    long x = q[0];
    touch(q);
    if (!really)
        return x;
    printf("inside %ld\n", inside(q));
    fflush(stdout);
    touch(q);
    return x + q[-2]; /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    long *p = calloc(2, sizeof(long));
    p[0] = 5;
    p[1] = 2;
    printf("%ld\n", before(p + 1, argc));
    return 0;
}
