/* gimso-test
 * expect: error out-of-bounds read
 * line: 24
 * stdout:
 * | a 5
 */
/* Accesses through one pointer at constant offsets share a check: after
 * p->a passes, p->b (the next word) is checked against the object's upper
 * end only. An object one word short of the struct is still caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct two {
    long a;
    long b;
};

__attribute__((noinline)) long sum(struct two *p, int both) {
    long s = p->a;
    printf("a %ld\n", s);
    fflush(stdout);
    if (both)
        s += p->b; /* BUG */
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    struct two *p = malloc(sizeof(long)); /* one word: no room for b */
    p->a = 5;
    printf("%ld\n", sum(p, argc));
    return 0;
}
