/* gimso-test
 * expect: run
 * env: GIMSO_BACKTRACE=0
 * stdout:
 * | in bounds: 9/9
 * | out of bounds: 9/9
 */
/* A local array passed to a small helper that the optimiser inlines: the
 * helper's out-of-bounds access lands in the caller's array, whose stores
 * nothing reads again and whose loads past the end the optimiser would
 * fold. Each is reported at -O2 as at -O0, and the same helpers called
 * within bounds run cleanly. Each case runs in a child process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

static void fill(char *p, int n) {
    for (int i = 0; i < n; i++)
        p[i] = (char)('a' + i);
}
static int sum(const int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}
static void put(int *p, int i, int v) { p[i] = v; }
static int get(const int *p, int i) { return p[i]; }
static void copy_in(char *dst, const char *src, size_t n) { memcpy(dst, src, n); }
static void copy_str(char *dst, const char *src) {
    while ((*dst++ = *src++))
        ;
}
static void put_outer(int *p, int i) { put(p, i, 7); }
static void zero(long *p, int n) {
    for (int i = 0; i < n; i++)
        p[i] = 0;
}

/* `extra` is 0 for the in-bounds run, 1 for the out-of-bounds one. */
static void case_fill(int extra) { char buf[10]; fill(buf, 10 + extra); }
static void case_sum(int extra) {
    int a[4] = {1, 2, 3, 4};
    sink = sum(a, 4 + extra);
}
static void case_put_end(int extra) {
    int a[4];
    put(a, 3 + extra, 1);
}
static void case_get_before(int extra) {
    int a[4] = {1, 2, 3, 4};
    sink = get(a, 0 - extra);
}
static void case_get_end(int extra) {
    int a[4] = {1, 2, 3, 4};
    sink = get(a, 3 + extra);
}
static void case_copy(int extra) {
    char b[8];
    copy_in(b, "0123456789", 8 + (size_t)extra);
}
static void case_copy_str(int extra) {
    char b[4];
    copy_str(b, extra ? "abcd" : "abc");
}
static void case_nested(int extra) {
    int a[3];
    put_outer(a, 2 + extra);
}
static void case_vla(int extra) {
    int n = 5;
    long v[n];
    zero(v, n + extra);
}

static void (*const cases[])(int) = {case_fill,     case_sum,    case_put_end,
                                     case_get_before, case_get_end, case_copy,
                                     case_copy_str, case_nested, case_vla};
#define NCASES (int)(sizeof cases / sizeof cases[0])

/* Runs case `i` in a child; returns 1 if it behaved: a clean exit in
 * bounds, an out-of-bounds report past them. */
static int run(int i, int extra) {
    int err[2];
    if (pipe(err) != 0)
        exit(2);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(err[0]);
        dup2(err[1], 2);
        cases[i](extra);
        _exit(0);
    }
    close(err[1]);
    char report[64] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof report - 1 && (r = read(err[0], report + got, sizeof report - 1 - got)) > 0)
        got += (size_t)r;
    char drain[256];
    while (read(err[0], drain, sizeof drain) > 0)
        ;
    close(err[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const char *want = "gimso: safety error: out-of-bounds";
    int ok = extra ? WIFEXITED(status) && WEXITSTATUS(status) == 134 &&
                         strncmp(report, want, strlen(want)) == 0
                   : WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == 0;
    if (!ok)
        printf("case %d (%s): status %#x, stderr \"%.40s\"\n", i, extra ? "past" : "within", status,
               report);
    return ok;
}

int main(void) {
    int good = 0, bad = 0;
    for (int i = 0; i < NCASES; i++) {
        good += run(i, 0);
        bad += run(i, 1);
    }
    printf("in bounds: %d/%d\n", good, NCASES);
    printf("out of bounds: %d/%d\n", bad, NCASES);
    return 0;
}
