/* gimso-test
 * expect: error out-of-bounds read
 * line: 68
 * native: no-asan (glibc's dirname is not instrumented)
 * stdout:
 * | qsort_r 5 4 3 2 1 calls 1
 * | lfind 2 none 1 lsearch 4 [7] again 4
 * | dirname [/usr] [/] [.] [//usr] [/] [.]
 * | basename [lib] [usr] [/] [.] [x]
 * | gnu basename [lib] [] [a]
 * | fnmatch 0 1 0 1 0
 */
/* qsort_r, lfind/lsearch, dirname and both basenames, fnmatch; dirname of
 * a path without its NUL is caught. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <libgen.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_arg(const void *a, const void *b, void *arg) {
    int *calls = arg;
    ++*calls;
    return *(const int *)b - *(const int *)a;
}

static int eq(const void *a, const void *b) { return *(const int *)a != *(const int *)b; }

/* A fresh copy for each call: both functions may write into the path. */
static char *copy(const char *s) {
    static char bufs[16][64];
    static int next;
    return strcpy(bufs[next++ % 16], s);
}

static const char *posix_base(const char *s) { return basename(copy(s)); }

static const char *dir(const char *s) { return dirname(copy(s)); }

#undef basename
char *basename(const char *path); /* GNU's, from <string.h> */

int main(void) {
    int v[5] = {3, 1, 5, 2, 4};
    int calls = 0;
    qsort_r(v, 5, sizeof *v, by_arg, &calls);
    printf("qsort_r %d %d %d %d %d calls %d\n", v[0], v[1], v[2], v[3], v[4], calls > 0);
    int table[8] = {10, 20, 30, 40};
    size_t n = 4;
    int k = 30, missing = 99, add = 7;
    int *f = lfind(&k, table, &n, sizeof(int), eq);
    int *g = lfind(&missing, table, &n, sizeof(int), eq);
    int *h = lsearch(&add, table, &n, sizeof(int), eq);
    int *h2 = lsearch(&add, table, &n, sizeof(int), eq);
    printf("lfind %d none %d lsearch %d [%d] again %d\n", (int)(f - table), g == NULL, (int)(h - table),
           *h, (int)(h2 - table));
    printf("dirname [%s]", dir("/usr/lib"));
    printf(" [%s] [%s] [%s] [%s] [%s]\n", dir("/usr/"), dir("usr"), dir("//usr//lib//"), dir("/"), dir(""));
    printf("basename [%s]", posix_base("/usr/lib"));
    printf(" [%s] [%s] [%s] [%s]\n", posix_base("/usr/"), posix_base("/"), posix_base(""), posix_base("x"));
    printf("gnu basename [%s] [%s] [%s]\n", basename("/usr/lib"), basename("/usr/"), basename("a"));
    printf("fnmatch %d %d %d %d %d\n", fnmatch("*.c", "main.c", 0), fnmatch("*.c", "main.h", 0) == FNM_NOMATCH,
           fnmatch("src/*", "src/a.c", FNM_PATHNAME), fnmatch("*", ".hidden", FNM_PERIOD) == FNM_NOMATCH,
           fnmatch("[a-c]?", "bz", 0));
    char raw[8] = {'/', 'a', '/', 'b', '/', 'c', 'd', 'e'};
    return dirname(raw) != NULL;
}
