/* gimso-test
 * expect: error out-of-bounds read
 * line: 20
 * stdout:
 * | 10 11 12 13
 */
/* After t->n passes, t is known to be at or above the object's start, and
 * t->v[i] with an unsigned char index is at or above t: its check compares
 * with the object's end only, which still catches an index past it. */
#include <stdio.h>
#include <stdlib.h>

struct tab {
    long n;
    long v[4];
};

__attribute__((noinline)) long get(struct tab *t, unsigned char i) {
    long n = t->n;
    return n + t->v[i]; /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    struct tab *t = malloc(sizeof *t);
    t->n = 10;
    for (int i = 0; i < 4; i++)
        t->v[i] = i;
    for (int i = 0; i < 4; i++)
        printf(i ? " %ld" : "%ld", get(t, (unsigned char)i));
    printf("\n");
    fflush(stdout);
    printf("%ld\n", get(t, (unsigned char)(3 + argc)));
    return 0;
}
