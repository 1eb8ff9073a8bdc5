/*
 * binary-trees through the gimso runtime's C API, written by hand the way
 * gimso-cc will compile it (see binary_trees.h for the workload):
 *
 * - every node is a capability object from gimso_alloc (24 bytes, zeroed);
 * - the child pointers (offsets 0 and 8) are stored with gimso_store_ptr and
 *   read with gimso_load_ptr, so they live with their capabilities in
 *   shadow storage and every access is checked;
 * - the item (offset 16) is written and read after gimso_check_access;
 * - nothing is freed: the concurrent collector reclaims dead trees. Flight
 *   pointers held in locals are found by its conservative stack scan;
 * - every function polls at entry, inline, as compiled code does: one load
 *   of the thread's state word and a branch to gimso_pollcheck_slow.
 */
#include <stdio.h>

#include "gimso.h"

#define NODE_LEFT 0
#define NODE_RIGHT 8
#define NODE_ITEM 16
#define NODE_SIZE 24

typedef gimso_ptr tree;

static gimso_thread_abi *self;

static void bt_init(void) { self = gimso_thread_attach(); }

static inline void poll(void) {
    if (__builtin_expect(__atomic_load_n(&self->state, __ATOMIC_RELAXED) & GIMSO_THREAD_REQUEST_MASK, 0))
        gimso_pollcheck_slow(self);
}

static void store_item(gimso_ptr n, long v) {
    gimso_ptr p = gimso_ptr_offset(n, NODE_ITEM);
    gimso_check_access(p, sizeof(long), GIMSO_ACCESS_WRITE | GIMSO_ACCESS_ALIGNED);
    *(long *)gimso_ptr_address(p) = v;
}

static long load_item(gimso_ptr n) {
    gimso_ptr p = gimso_ptr_offset(n, NODE_ITEM);
    gimso_check_access(p, sizeof(long), GIMSO_ACCESS_READ | GIMSO_ACCESS_ALIGNED);
    return *(long *)gimso_ptr_address(p);
}

static tree bt_make(int depth) {
    poll();
    gimso_ptr n = gimso_alloc(NODE_SIZE); /* zeroed: leaves keep null children */
    if (depth > 0) {
        gimso_store_ptr(gimso_ptr_offset(n, NODE_LEFT), bt_make(depth - 1));
        gimso_store_ptr(gimso_ptr_offset(n, NODE_RIGHT), bt_make(depth - 1));
    }
    store_item(n, 1);
    return n;
}

static long bt_check(tree t) {
    poll();
    long c = load_item(t);
    gimso_ptr left = gimso_load_ptr(gimso_ptr_offset(t, NODE_LEFT));
    if (left.intval != 0) {
        gimso_ptr right = gimso_load_ptr(gimso_ptr_offset(t, NODE_RIGHT));
        c += bt_check(left) + bt_check(right);
    }
    return c;
}

static void bt_release(tree t) { (void)t; }

static void bt_stats(void) {
    fprintf(stderr, "gimso: %lu collection cycles\n", (unsigned long)gimso_gc_cycles());
}

#include "binary_trees.h"
