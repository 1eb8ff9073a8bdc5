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
#include "oob_cases.h"

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

static const oob_case cases[] = {case_fill,       case_sum,     case_put_end,
                                 case_get_before, case_get_end, case_copy,
                                 case_copy_str,   case_nested,  case_vla};

int main(void) { return oob_cases_main(cases, (int)(sizeof cases / sizeof cases[0])); }
