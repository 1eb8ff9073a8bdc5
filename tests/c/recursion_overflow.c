/* gimso-test
 * expect: error out-of-bounds write
 * line: 28
 */
#include <stdio.h>
#include <stdlib.h>

struct tree {
    int value;
    struct tree *left, *right;
};

static struct tree *build(int depth, int *next) {
    if (depth == 0)
        return NULL;
    struct tree *t = malloc(sizeof *t);
    t->value = (*next)++;
    t->left = build(depth - 1, next);
    t->right = build(depth - 1, next);
    return t;
}

/* Flattens in order; the caller sized the output for 2^depth - 2 nodes. */
static int flatten(const struct tree *t, int *out, int n) {
    if (!t)
        return n;
    n = flatten(t->left, out, n);
    out[n++] = t->value; /* BUG */
    return flatten(t->right, out, n);
}

int main(void) {
    int next = 0;
    struct tree *t = build(5, &next);
    int *out = malloc(30 * sizeof(int));
    int n = flatten(t, out, 0);
    printf("%d %d\n", n, out[0]);
    return 0;
}
