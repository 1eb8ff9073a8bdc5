/* binary-trees (Computer Language Benchmarks Game style): allocation-heavy.
 * Usage: binary_trees [max_depth]   (default 17) */
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *left, *right;
};

static struct node *make(int depth) {
    struct node *n = malloc(sizeof *n);
    if (depth > 0) {
        n->left = make(depth - 1);
        n->right = make(depth - 1);
    } else {
        n->left = n->right = NULL;
    }
    return n;
}

static long check(const struct node *n) {
    return 1 + (n->left ? check(n->left) + check(n->right) : 0);
}

static void release(struct node *n) {
    if (n->left) {
        release(n->left);
        release(n->right);
    }
    free(n);
}

int main(int argc, char **argv) {
    int max_depth = argc > 1 ? atoi(argv[1]) : 17;
    int min_depth = 4;
    if (max_depth < min_depth + 2)
        max_depth = min_depth + 2;
    unsigned long checksum = 0;
    struct node *stretch = make(max_depth + 1);
    printf("stretch tree of depth %d\t check: %ld\n", max_depth + 1, check(stretch));
    release(stretch);
    struct node *long_lived = make(max_depth);
    for (int d = min_depth; d <= max_depth; d += 2) {
        long iterations = 1L << (max_depth - d + min_depth);
        long c = 0;
        for (long i = 0; i < iterations; i++) {
            struct node *t = make(d);
            c += check(t);
            release(t);
        }
        printf("%ld\t trees of depth %d\t check: %ld\n", iterations, d, c);
        checksum = checksum * 31 + (unsigned long)c;
    }
    printf("long lived tree of depth %d\t check: %ld\n", max_depth, check(long_lived));
    release(long_lived);
    printf("checksum %lu\n", checksum);
    return 0;
}
