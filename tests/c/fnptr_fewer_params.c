/* gimso-test
 * expect: run
 * stdout:
 * | one 10
 * | none 7
 * | extra double 2
 * | handlers: 1 4 9
 */
#include <stdio.h>

__attribute__((noinline)) int twice(int a) { return 2 * a; }
__attribute__((noinline)) int seven(void) { return 7; }
__attribute__((noinline)) long half(long x) { return x / 2; }

typedef int (*three_args)(int, int, int);
typedef int (*two_args)(int, const char *);
typedef long (*with_double)(long, double, const char *);

static int square(int x) { return x * x; }

int main(void) {
    /* Passing more arguments than the callee reads is fine. */
    three_args f = (three_args)twice;
    printf("one %d\n", f(5, 6, 7));
    two_args g = (two_args)seven;
    printf("none %d\n", g(1, "ignored"));
    with_double h = (with_double)half;
    printf("extra double %ld\n", h(5, 3.5, "x"));
    /* Callback style: handlers take (int), called as (int, void *). */
    typedef int (*handler)(int, void *);
    handler hs[3] = {(handler)square, (handler)square, (handler)square};
    printf("handlers:");
    for (int i = 0; i < 3; i++)
        printf(" %d", hs[i](i + 1, NULL));
    printf("\n");
    return 0;
}
