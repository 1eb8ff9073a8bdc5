/* gimso-test
 * expect: run
 * env: GIMSO_BACKTRACE=0
 * stdout:
 * | local in the frame: 384/384
 * | local that escapes: 384/384
 * | variable-length array: 384/384
 * | alloca: 384/384
 */
/* Locals of every size 1..64 (kept in the frame, and escaping), VLAs and
 * alloca: the last byte is in bounds, the next one is reported, read or
 * written directly or through memcpy, memset, strlen and strcpy. Bounds
 * are the size of the object, not rounded to words. */
#include <alloca.h>

#include "bounds_probe.h"

/* Where an escaping local's address goes. */
static char *volatile escaped;

#define IN_FRAME(N)                                                                                \
    case N: {                                                                                      \
        char a[N];                                                                                 \
        probe_access(a, N, op);                                                                    \
        break;                                                                                     \
    }

static void local_in_frame(size_t n, int op) {
    switch (n) { SIZES_1_64(IN_FRAME) }
}

#define ESCAPING(N)                                                                                \
    case N: {                                                                                      \
        char a[N];                                                                                 \
        escaped = a;                                                                               \
        probe_access(escaped, N, op);                                                              \
        break;                                                                                     \
    }

static void local_escaping(size_t n, int op) {
    switch (n) { SIZES_1_64(ESCAPING) }
}

static void vla(size_t n, int op) {
    char a[hide(n)];
    probe_access(a, n, op);
}

static void with_alloca(size_t n, int op) { probe_access(alloca(hide(n)), n, op); }

int main(void) {
    probe_sizes("local in the frame", local_in_frame, ALL_OPS);
    probe_sizes("local that escapes", local_escaping, ALL_OPS);
    probe_sizes("variable-length array", vla, ALL_OPS);
    probe_sizes("alloca", with_alloca, ALL_OPS);
    return 0;
}
