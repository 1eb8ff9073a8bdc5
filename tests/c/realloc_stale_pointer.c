/* gimso-test
 * expect: error use after free
 * line: 27
 */
#include <stdio.h>
#include <stdlib.h>

struct vec {
    long *data;
    long len, cap;
};

__attribute__((noinline)) void push(struct vec *v, long x) {
    if (v->len == v->cap) {
        v->cap *= 64;
        v->data = realloc(v->data, v->cap * sizeof(long));
    }
    v->data[v->len++] = x;
}

int main(void) {
    struct vec v = {malloc(2 * sizeof(long)), 0, 2};
    push(&v, 1);
    long *first = &v.data[0]; /* kept across a growth */
    push(&v, 2);
    push(&v, 3);
    printf("%ld\n", *first); /* BUG */
    return 0;
}
