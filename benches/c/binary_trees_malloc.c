/*
 * binary-trees with plain malloc and an explicit recursive free of every
 * tree when it is done (see binary_trees.h for the workload).
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *left;  /* offset 0 */
    struct node *right; /* offset 8 */
    long item;          /* offset 16 */
};

typedef struct node *tree;

static void bt_init(void) {}

static tree bt_make(int depth) {
    tree n = malloc(sizeof *n);
    if (n == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (depth > 0) {
        n->left = bt_make(depth - 1);
        n->right = bt_make(depth - 1);
    } else {
        n->left = n->right = NULL;
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

static void bt_release(tree t) {
    if (t->left != NULL) {
        bt_release(t->left);
        bt_release(t->right);
    }
    free(t);
}

static void bt_stats(void) {}

#include "binary_trees.h"
