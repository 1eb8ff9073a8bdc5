/* gimso-test
 * expect: run
 * exit: 3
 * stdout:
 * | sum 6
 * | report: abc def 3
 * | report: xbc def 3
 */
/* A local holding pointers whose address escapes only on a path that never
 * returns (here: report, then exit) stays in the frame on every other path;
 * on that path the calls get one heap copy of it, made with the values and
 * the capabilities of its pointers: report can follow them, and the second
 * report sees what the first one wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair {
    char *a;
    char *b;
    int n;
};

__attribute__((noinline)) void report(struct pair *p) {
    printf("report: %s %s %d\n", p->a, p->b, p->n);
    fflush(stdout);
    p->a[0] = 'x';
}

__attribute__((noinline)) int work(int n, int fail) {
    struct pair p;
    memset(&p, 0, sizeof p);
    p.a = malloc(4);
    strcpy(p.a, "abc");
    p.b = malloc(4);
    strcpy(p.b, "def");
    p.n = n;
    if (fail) {
        report(&p);
        report(&p);
        exit(3);
    }
    int s = p.a[0] - 'a' + p.b[0] - 'd' + p.n;
    free(p.a);
    free(p.b);
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    printf("sum %d\n", work(6, 0));
    work(3, argc);
    return 0;
}
