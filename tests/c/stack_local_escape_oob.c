/* gimso-test
 * expect: error out-of-bounds read
 * line: 22
 * stdout:
 * | sum 6
 * | report: 3
 */
/* The heap copy a local gets when its address escapes on a never-returning
 * path has the local's exact bounds: reading the element after it is caught
 * in the callee. */
#include <stdio.h>
#include <stdlib.h>

struct pair {
    int *a;
    int *b;
};

__attribute__((noinline)) void report(struct pair *p) {
    printf("report: %d\n", *p->a + *p->b);
    fflush(stdout);
    printf("%p\n", (void *)p[1].a); /* BUG */
}

__attribute__((noinline)) int work(int *x, int *y, int fail) {
    struct pair p;
    p.a = x;
    p.b = y;
    if (fail) {
        report(&p);
        abort();
    }
    return *p.a + *p.b;
}

int main(int argc, char **argv) {
    (void)argv;
    int one = 1, two = 2;
    printf("sum %d\n", work(&one, &two, 0) * 2);
    fflush(stdout);
    work(&one, &two, argc);
    return 0;
}
