/* gimso-test
 * expect: error out-of-bounds read
 * line: 58
 * env: GIMSO_GC_TORTURE=3
 * stdout:
 * | copied: one two three
 * | moved: a a b c
 * | unaligned: hello, world!!!
 * | packed: x y
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Constant-length copies of whole words between aligned addresses are
 * done as word loads and stores (capabilities move with their words);
 * others go through the runtime. Both paths must keep the pointers usable,
 * copy overlapping ranges as memmove does, and check bounds. */
struct three {
    const char *a, *b, *c;
};

struct __attribute__((packed)) odd {
    char tag;
    const char *p, *q;
};

static char *dup(const char *s) {
    char *d = malloc(strlen(s) + 1);
    strcpy(d, s);
    return d;
}

int main(void) {
    struct three *x = malloc(sizeof *x), *y = malloc(sizeof *y);
    x->a = dup("one");
    x->b = dup("two");
    x->c = dup("three");
    memcpy(y, x, sizeof *y);
    free(malloc(64)); /* collections while only y holds the copies' words */
    printf("copied: %s %s %s\n", y->a, y->b, y->c);

    const char *v[4] = {dup("a"), dup("b"), dup("c"), dup("d")};
    memmove(&v[1], &v[0], 3 * sizeof v[0]);
    printf("moved: %s %s %s %s\n", v[0], v[1], v[2], v[3]);

    char buf[40] = "xhello, world!!!";
    char out[40] = {0};
    memcpy(out, buf + 1, 16);
    printf("unaligned: %s\n", out);

    struct odd o1 = {'t', dup("x"), dup("y")}, o2;
    memcpy(&o2, &o1, sizeof o2);
    printf("packed: %s %s\n", o2.p, o2.q);
    fflush(stdout);

    struct three *small = malloc(16);
    memcpy(y, small, sizeof *y); /* BUG */
    return 0;
}
