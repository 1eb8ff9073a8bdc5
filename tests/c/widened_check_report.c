/* gimso-test
 * expect: error out-of-bounds read
 * line: 26
 * stdout:
 * | whole: 6
 */
/* A check covering several accesses through one pointer (the first access
 * of a block is checked for the later ones too) still reports the access
 * that fails, at its own line and with its own size and offset: here the
 * third field of a struct allocated two fields short. */
#include <stdio.h>
#include <stdlib.h>

struct triple {
    long a, b, c;
};

static struct triple *volatile keep;

__attribute__((noinline)) long sum3(struct triple *t) {
    long a = t->a;
    t->b = a + 1;
    long b = t->b;
    return a +
           b +
           t->c; /* BUG: past the end of a 16-byte object */
}

int main(void) {
    struct triple *whole = calloc(1, sizeof *whole);
    whole->a = 1;
    whole->c = 3;
    keep = whole;
    printf("whole: %ld\n", sum3(keep));
    fflush(stdout);
    struct triple *short_one = calloc(1, 2 * sizeof(long));
    keep = short_one;
    return (int)sum3(keep);
}
