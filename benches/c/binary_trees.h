/*
 * binary_trees.h: the shared driver of the binary-trees workload
 * (Computer Language Benchmarks Game style, single-threaded).
 *
 * Each variant (binary_trees_{gimso,boehm,malloc}.c) defines, before
 * including this file:
 *
 *   typedef ... tree;                    a reference to a node
 *   static void bt_init(void);           runtime setup (may be empty)
 *   static tree bt_make(int depth);      a complete tree of that depth
 *   static long bt_check(tree t);        the number of nodes (sum of items)
 *   static void bt_release(tree t);      free the tree (no-op under a GC)
 *   static void bt_stats(void);          one line on stderr (may be empty)
 *
 * Every node has the same layout in all three variants: left child at
 * offset 0, right child at offset 8, an 8-byte item (always 1) at offset 16.
 * The check sums the items, so it counts nodes and reads every item.
 *
 * Output (stdout) is identical across variants for the same depth:
 *
 *   ./binary_trees_X [max_depth]        (default 16, at least 6)
 */
#ifndef BINARY_TREES_H
#define BINARY_TREES_H

#include <stdio.h>
#include <stdlib.h>

#define BT_MIN_DEPTH 4
#define BT_DEFAULT_DEPTH 16

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : BT_DEFAULT_DEPTH;
    int max_depth = n < BT_MIN_DEPTH + 2 ? BT_MIN_DEPTH + 2 : n;
    if (max_depth > 30) {
        fprintf(stderr, "max_depth %d too large (at most 30)\n", max_depth);
        return 2;
    }

    bt_init();

    /* Stretch the heap once with a tree one level deeper, then drop it. */
    int stretch_depth = max_depth + 1;
    tree stretch = bt_make(stretch_depth);
    printf("stretch tree of depth %d\t check: %ld\n", stretch_depth, bt_check(stretch));
    bt_release(stretch);

    /* Lives until the end: the collector must keep tracing it. */
    tree long_lived = bt_make(max_depth);

    for (int depth = BT_MIN_DEPTH; depth <= max_depth; depth += 2) {
        long iterations = 1L << (max_depth - depth + BT_MIN_DEPTH);
        long check = 0;
        for (long i = 0; i < iterations; i++) {
            tree t = bt_make(depth);
            check += bt_check(t);
            bt_release(t);
        }
        printf("%ld\t trees of depth %d\t check: %ld\n", iterations, depth, check);
    }

    printf("long lived tree of depth %d\t check: %ld\n", max_depth, bt_check(long_lived));
    bt_release(long_lived);
    bt_stats();
    return 0;
}

#endif /* BINARY_TREES_H */
