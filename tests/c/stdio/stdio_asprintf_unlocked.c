/* gimso-test
 * expect: run
 * stdout:
 * | asprintf 10 'abc-42-1.5' len 10
 * | writable 'Abc-42-1.5'
 * | vasprintf '00007|ff'
 * | dprintf 1
 * | vdprintf two
 * | fputs_unlocked
 * | fwrite_unlocked
 * | p
 * | ftrylockfile 0
 * | getc_unlocked xy eof 1
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *joined(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *out = NULL;
    int n = vasprintf(&out, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : out;
}

static void to_fd(int fd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vdprintf(fd, fmt, ap);
    va_end(ap);
}

int main(void) {
    char *s = NULL;
    int n = asprintf(&s, "%s-%d-%.1f", "abc", 42, 1.5);
    printf("asprintf %d '%s' len %zu\n", n, s, strlen(s));
    s[0] = 'A';
    printf("writable '%s'\n", s);
    free(s);
    char *j = joined("%05d|%x", 7, 255);
    printf("vasprintf '%s'\n", j);
    free(j);
    fflush(stdout);
    dprintf(1, "dprintf %d\n", 1);
    to_fd(1, "vdprintf %s\n", "two");
    flockfile(stdout);
    fputs_unlocked("fputs_unlocked\n", stdout);
    fwrite_unlocked("fwrite_unlocked\n", 1, 16, stdout);
    putc_unlocked('p', stdout);
    putchar_unlocked('\n');
    fflush_unlocked(stdout);
    printf("ftrylockfile %d\n", ftrylockfile(stdout));
    funlockfile(stdout);
    funlockfile(stdout);
    FILE *f = tmpfile();
    fputs("xy", f);
    rewind(f);
    int a = getc_unlocked(f);
    int b = fgetc(f);
    printf("getc_unlocked %c%c eof %d\n", a, b, getc_unlocked(f) == EOF && feof_unlocked(f));
    fclose(f);
    return 0;
}
