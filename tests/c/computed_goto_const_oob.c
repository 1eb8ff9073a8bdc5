/* gimso-test
 * expect: error out-of-bounds read
 * line: 19
 * stdout:
 * | good: 4
 */
#include <stdio.h>

/* The dispatch table is constant: the jump reads its code address from a
 * table alongside, after the load from this one is bounds-checked. */

__attribute__((noinline)) long interpret(const unsigned char *ops, int n) {
    static const void *const table[] = {&&inc, &&dbl, &&end};
    long acc = 0;
    int i = 0;
next:
    if (i == n)
        return acc;
    goto *table[ops[i++]]; /* BUG */
inc:
    acc++;
    goto next;
dbl:
    acc *= 2;
    goto next;
end:
    return acc;
}

int main(void) {
    unsigned char good[] = {0, 0, 1, 2};
    long r = interpret(good, 4);
    printf("good: %ld\n", r);
    fflush(stdout);
    unsigned char bad[] = {0, 7};
    r += interpret(bad, 2);
    printf("%ld\n", r);
    return 0;
}
