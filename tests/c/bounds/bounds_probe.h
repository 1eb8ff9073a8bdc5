/* Shared by the exact_bounds_*.c programs: each probe runs in a child
 * process that must make one access that ends on an object's last byte
 * (and report that it got there), then one that takes the next byte, and
 * be stopped there with an out-of-bounds report. The parent checks all
 * three and prints one line per kind: how many probes behaved. */
#ifndef BOUNDS_PROBE_H
#define BOUNDS_PROBE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The operations a probe makes: the in-bounds one covers bytes [0, n),
 * the caught one [0, n + 1) (or byte n alone for reads and writes). */
enum probe_op {
    OP_READ,   /* p[n - 1], then p[n] */
    OP_WRITE,  /* p[n - 1] = c, then p[n] = c */
    OP_MEMCPY, /* memcpy from the object: n bytes, then n + 1 */
    OP_MEMSET, /* memset of the object: n bytes, then n + 1 */
    OP_STRLEN, /* strlen of n - 1 characters and a NUL, then unterminated */
    OP_STRCPY, /* strcpy of n - 1 characters into it, then n */
    OP_COUNT
};

static const char *const op_names[OP_COUNT] = {"read", "write", "memcpy", "memset", "strlen",
                                               "strcpy"};

/* A value the optimiser cannot see through: indices and sizes pass here so
 * that no access is folded away or proven out of bounds at compile time. */
static volatile size_t probe_opaque;
static volatile unsigned char probe_sink;
static char probe_source[80];
static char probe_scratch[80];

static size_t hide(size_t x) {
    probe_opaque = x;
    return probe_opaque;
}

static int probe_ok_fd = -1;

/* Called by the child after its in-bounds access. */
static void probe_reached(void) {
    if (write(probe_ok_fd, "k", 1) != 1)
        _exit(3);
}

/* Makes access `op` on the `n`-byte object at `p`, first in bounds, then
 * one byte past (ending the child). Inlined even at -O0, so that a local
 * probed here is accessed in its own frame. */
__attribute__((always_inline)) static inline void probe_access(char *p, size_t n, int op) {
    size_t last = hide(n - 1), past = hide(n);
    switch (op) {
    case OP_READ:
        probe_sink = p[last];
        probe_reached();
        probe_sink = p[past];
        break;
    case OP_WRITE:
        p[last] = 'w';
        probe_reached();
        p[past] = 'w';
        probe_sink = p[last];
        break;
    case OP_MEMCPY:
        memcpy(probe_scratch, p, hide(n));
        probe_reached();
        memcpy(probe_scratch, p, hide(n + 1));
        probe_sink = probe_scratch[last];
        break;
    case OP_MEMSET:
        memset(p, 'y', hide(n));
        probe_reached();
        memset(p, 'y', hide(n + 1));
        probe_sink = p[last];
        break;
    case OP_STRLEN:
        memset(p, 'a', last);
        p[last] = 0;
        probe_sink = (unsigned char)strlen(p);
        probe_reached();
        p[last] = 'a';
        probe_sink = (unsigned char)strlen(p);
        break;
    case OP_STRCPY:
        memset(probe_source, 'a', sizeof probe_source);
        probe_source[last] = 0;
        strcpy(p, probe_source);
        probe_reached();
        probe_source[last] = 'a';
        probe_source[past] = 0;
        strcpy(p, probe_source);
        probe_sink = p[last];
        break;
    }
}

static int probe_total, probe_good;

/* Runs `body(n, op)` in a child and checks that it reached its in-bounds
 * access and was then stopped by an out-of-bounds report. */
static void probe(const char *kind, void (*body)(size_t, int), size_t n, int op) {
    int ok[2], err[2];
    if (pipe(ok) != 0 || pipe(err) != 0) {
        perror("pipe");
        exit(2);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        close(ok[0]);
        close(err[0]);
        dup2(err[1], 2);
        probe_ok_fd = ok[1];
        body(n, op);
        _exit(0);
    }
    close(ok[1]);
    close(err[1]);
    char reached = 0, report[48] = {0};
    if (read(ok[0], &reached, 1) != 1)
        reached = 0;
    size_t got = 0;
    ssize_t r;
    char drain[512];
    while (got < sizeof report - 1 && (r = read(err[0], report + got, sizeof report - 1 - got)) > 0)
        got += (size_t)r;
    while (read(err[0], drain, sizeof drain) > 0)
        ;
    close(ok[0]);
    close(err[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const char *want = "gimso: safety error: out-of-bounds";
    int stopped = WIFEXITED(status) && WEXITSTATUS(status) == 134;
    int reported = strncmp(report, want, strlen(want)) == 0;
    probe_total++;
    if (reached == 'k' && stopped && reported) {
        probe_good++;
        return;
    }
    char *nl = strchr(report, '\n');
    if (nl)
        *nl = 0;
    printf("%s size %zu %s: %s (status %#x, stderr \"%s\")\n", kind, n, op_names[op],
           reached != 'k' ? "the last byte was refused"
                          : stopped ? "stopped, but not by an out-of-bounds report"
                                    : "the next byte was not reported",
           status, report);
}

/* Probes every operation in `ops` (a bit mask) for sizes 1..64 of `kind`
 * and prints "<kind>: <good>/<total>". */
static void probe_sizes(const char *kind, void (*body)(size_t, int), unsigned ops) {
    probe_total = probe_good = 0;
    for (size_t n = 1; n <= 64; n++)
        for (int op = 0; op < OP_COUNT; op++)
            if (ops & (1u << op))
                probe(kind, body, n, op);
    printf("%s: %d/%d\n", kind, probe_good, probe_total);
}

#define ALL_OPS ((1u << OP_COUNT) - 1)
/* Operations that only read the object (constants, string literals). */
#define READ_OPS ((1u << OP_READ) | (1u << OP_MEMCPY))

/* X(1) ... X(64): one item per probed size, for objects whose size is a
 * constant of their type. */
#define SIZES_1_64(X)                                                                              \
    X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17)  \
    X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)     \
    X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47)     \
    X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61) X(62)     \
    X(63) X(64)

#endif
