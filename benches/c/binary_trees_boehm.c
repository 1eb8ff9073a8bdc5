/*
 * binary-trees with plain C pointers and the Boehm collector (libgc):
 * nodes come from GC_MALLOC and are never freed (see binary_trees.h).
 */
#include <gc.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *left;  /* offset 0 */
    struct node *right; /* offset 8 */
    long item;          /* offset 16 */
};

typedef struct node *tree;

static void bt_init(void) { GC_INIT(); }

static tree bt_make(int depth) {
    tree n = GC_MALLOC(sizeof *n); /* zeroed: leaves keep NULL children */
    if (n == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (depth > 0) {
        n->left = bt_make(depth - 1);
        n->right = bt_make(depth - 1);
    }
    n->item = 1;
    return n;
}

static long bt_check(tree t) {
    long c = t->item;
    if (t->left != NULL)
        c += bt_check(t->left) + bt_check(t->right);
    return c;
}

static void bt_release(tree t) { (void)t; }

static void bt_stats(void) {
    fprintf(stderr, "boehm: %lu collections, heap %zu bytes\n",
            (unsigned long)GC_get_gc_no(), GC_get_heap_size());
}

#include "binary_trees.h"
