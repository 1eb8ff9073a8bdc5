/* gimso-test
 * expect: run
 * stdout:
 * | 42 11 13 7 14
 * | 0 3 6 9
 * | 2 1 0
 * | n1 n22
 * | 99 5 8
 */
/* A local whose address outlives its function is an object like any
 * other: the pointer still reads what the function last stored there, as
 * at -O0 (the optimiser would delete those stores as dead at the return,
 * or at the end of the local's scope). Each call makes a new object, also
 * when the function would have been inlined into a loop. Reading such a
 * pointer is undefined in C; under gimso it is defined, and the same at
 * every -O. */
#include <stdio.h>

int *g;
static void set_global(int v) { int x = v; g = &x; }
static int *array_element(int v) {
    int a[4] = {v, v + 1, v + 2, v + 3};
    int *p = a;
    return p + 1;
}
struct S {
    int a, b;
};
static struct S *pair(int v) {
    struct S s = {v, v * 2};
    struct S *r = &s;
    return r;
}
static int *make(int v) {
    int x = v * 3;
    int *p = &x;
    return p;
}
struct node {
    struct node *next;
    int v;
};
static struct node *top;
static void push(int v) {
    struct node n;
    n.v = v;
    n.next = top;
    top = &n;
}
static char *name(int i) {
    char buf[16];
    snprintf(buf, sizeof buf, "n%d", i);
    char *r = buf;
    return r;
}
static void fill(int **out, int v) {
    int y = v;
    *out = &y;
}
struct holder {
    int *p;
};
static void through_struct(int v) {
    int z = v;
    struct holder h;
    h.p = &z;
    g = h.p;
}

int main(void) {
    set_global(42);
    printf("%d ", *g);
    int *p = array_element(10);
    printf("%d %d ", p[0], p[2]);
    struct S *s = pair(7);
    printf("%d %d\n", s->a, s->b);

    int *ps[4];
    for (int i = 0; i < 4; i++)
        ps[i] = make(i);
    for (int i = 0; i < 4; i++)
        printf(i ? " %d" : "%d", *ps[i]);
    printf("\n");

    for (int i = 0; i < 3; i++)
        push(i);
    for (struct node *n = top; n; n = n->next)
        printf(n->next ? "%d " : "%d\n", n->v);

    char *a = name(1), *b = name(22);
    printf("%s %s\n", a, b);

    int *q;
    fill(&q, 99);
    int *inner;
    {
        int y = 5;
        inner = &y;
    }
    through_struct(8);
    printf("%d %d %d\n", *q, *inner, *g);
    return 0;
}
