/* gimso-test
 * expect: error out-of-bounds read
 * line: 74
 * stdout:
 * | sum 499500
 * | fib 6765
 * | dup hello 5
 * | scaled 7.5
 * | pair 3 4
 * | sorted 1 2 3 4 5
 * | table 39
 */
/* Calls through function pointers whose type matches the callee's take
 * the direct body (the function object records it with its type's hash):
 * integer, pointer, floating-point and struct results, recursion through a
 * pointer, pointers held in structs and tables, a C library callback into
 * compiled code. A pointer returned that way keeps its capability, so the
 * read past the end of the duplicated string is caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair {
    long a, b;
};

static int add(int a, int b) { return a + b; }
static char *dup(const char *s) {
    char *p = malloc(strlen(s) + 1);
    strcpy(p, s);
    return p;
}
static double scale(double x, int k) { return x * k; }
static struct pair swap(struct pair p) { return (struct pair){p.b, p.a}; }
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }

typedef int (*int_fn)(int);
static long (*volatile fibp)(long);
static long fib(long n) { return n < 2 ? n : fibp(n - 1) + fibp(n - 2); }

struct ops {
    int (*op)(int, int);
    char *(*d)(const char *);
    double (*s)(double, int);
    struct pair (*sw)(struct pair);
};

int main(void) {
    struct ops o = {add, dup, scale, swap};
    struct ops *volatile vo = &o;
    int s = 0;
    for (int i = 0; i < 1000; i++)
        s = vo->op(s, i);
    printf("sum %d\n", s);
    fibp = fib;
    printf("fib %ld\n", fibp(20));
    char *p = vo->d("hello");
    printf("dup %s %zu\n", p, strlen(p));
    printf("scaled %.1f\n", vo->s(2.5, 3));
    struct pair q = vo->sw((struct pair){4, 3});
    printf("pair %ld %ld\n", q.a, q.b);
    int a[5] = {5, 3, 1, 4, 2};
    qsort(a, 5, sizeof a[0], cmp);
    printf("sorted %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]);
    int_fn table[2] = {twice, thrice};
    int_fn *volatile vt = table;
    int t = 0;
    for (int i = 0; i < 6; i++)
        t += vt[i % 2](i);
    printf("table %d\n", t);
    fflush(stdout);
    return p[8]; /* BUG: 6 bytes */
}
