/* gimso-test
 * expect: run
 * stdout:
 * | copy: widget 3 [10 20 30]
 * | orig: widget 3 [10 20 99]
 * | passed: gadget 3 sum 60
 * | returned: made 2 [7 8]
 * | array copy: b a
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec {
    const char *name;
    int len;
    int *data;
    struct vec *self;
};

__attribute__((noinline)) int sum_vec(struct vec v) {
    int s = 0;
    for (int i = 0; i < v.len; i++)
        s += v.data[i];
    v.data = NULL; /* must not affect the caller */
    return s;
}

__attribute__((noinline)) struct vec make(int a, int b) {
    struct vec v;
    v.name = "made";
    v.len = 2;
    v.data = malloc(2 * sizeof(int));
    v.data[0] = a;
    v.data[1] = b;
    v.self = NULL;
    return v;
}

struct pair {
    const char *s[2];
};

int main(void) {
    struct vec a;
    a.name = "widget";
    a.len = 3;
    a.data = malloc(3 * sizeof(int));
    a.data[0] = 10;
    a.data[1] = 20;
    a.data[2] = 30;
    a.self = &a;
    struct vec *heap = malloc(sizeof *heap);
    *heap = a; /* aggregate copy keeps capabilities */
    int *copied = malloc(3 * sizeof(int));
    memcpy(copied, a.data, 3 * sizeof(int));
    heap->data = copied;
    a.data[2] = 99;
    printf("copy: %s %d [%d %d %d]\n", heap->name, heap->len, heap->data[0], heap->data[1],
           heap->data[2]);
    printf("orig: %s %d [%d %d %d]\n", heap->self->name, heap->self->len, a.data[0], a.data[1],
           a.data[2]);
    struct vec g = *heap;
    g.name = "gadget";
    printf("passed: %s %d sum %d\n", g.name, g.len, sum_vec(g));
    struct vec m = make(7, 8);
    printf("returned: %s %d [%d %d]\n", m.name, m.len, m.data[0], m.data[1]);
    struct pair p1 = {{"a", "b"}};
    struct pair p2;
    p2 = p1;
    const char *t = p2.s[0];
    p2.s[0] = p2.s[1];
    p2.s[1] = t;
    printf("array copy: %s %s\n", p2.s[0], p2.s[1]);
    free(m.data);
    free(copied);
    free(heap);
    free(a.data);
    return 0;
}
