/* gimso-test
 * expect: run
 * env: GIMSO_BACKTRACE=0
 * stdout:
 * | malloc: 384/384
 * | calloc: 384/384
 * | realloc growing: 384/384
 * | realloc shrinking: 384/384
 * | aligned_alloc 64: 384/384
 * | posix_memalign 256: 384/384
 * | strdup: 384/384
 * | strndup: 384/384
 * | asprintf: 384/384
 */
/* Heap objects of every size 1..64, from every allocator entry point and
 * the wrappers that allocate: the last byte is in bounds, the next one is
 * reported, read or written directly or through memcpy, memset, strlen
 * and strcpy. Bounds are the size asked for, not rounded to words. */
#define _GNU_SOURCE
#include "bounds_probe.h"

static void with_malloc(size_t n, int op) { probe_access(malloc(hide(n)), n, op); }

static void with_calloc(size_t n, int op) { probe_access(calloc(hide(n), 1), n, op); }

static void with_realloc_growing(size_t n, int op) {
    char *p = malloc(1);
    probe_access(realloc(p, hide(n)), n, op);
}

static void with_realloc_shrinking(size_t n, int op) {
    char *p = malloc(200);
    probe_access(realloc(p, hide(n)), n, op);
}

static void with_aligned_alloc(size_t n, int op) {
    char *p = aligned_alloc(64, hide(n));
    if ((size_t)p % 64 != 0)
        _exit(4);
    probe_access(p, n, op);
}

static void with_posix_memalign(size_t n, int op) {
    void *p = NULL;
    if (posix_memalign(&p, 256, hide(n)) != 0 || (size_t)p % 256 != 0)
        _exit(4);
    probe_access(p, n, op);
}

/* A string of n - 1 characters, for the wrappers that copy strings. */
static const char *text(size_t n) {
    static char s[80];
    memset(s, 'x', sizeof s);
    s[n - 1] = 0;
    return s;
}

static void with_strdup(size_t n, int op) { probe_access(strdup(text(hide(n))), n, op); }

static void with_strndup(size_t n, int op) {
    probe_access(strndup("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopq",
                         hide(n - 1)),
                 n, op);
}

static void with_asprintf(size_t n, int op) {
    char *p = NULL;
    if (asprintf(&p, "%s", text(hide(n))) != (int)n - 1)
        _exit(4);
    probe_access(p, n, op);
}

int main(void) {
    probe_sizes("malloc", with_malloc, ALL_OPS);
    probe_sizes("calloc", with_calloc, ALL_OPS);
    probe_sizes("realloc growing", with_realloc_growing, ALL_OPS);
    probe_sizes("realloc shrinking", with_realloc_shrinking, ALL_OPS);
    probe_sizes("aligned_alloc 64", with_aligned_alloc, ALL_OPS);
    probe_sizes("posix_memalign 256", with_posix_memalign, ALL_OPS);
    probe_sizes("strdup", with_strdup, ALL_OPS);
    probe_sizes("strndup", with_strndup, ALL_OPS);
    probe_sizes("asprintf", with_asprintf, ALL_OPS);
    return 0;
}
