/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 * stdout:
 * | short: 5
 */
/* A local array used on one path only is created on that path, with the
 * bounds of the array: an overrun of it is caught there, and the path that
 * stays inside it is silent. */
#include <stdio.h>
#include <string.h>

static __attribute__((noinline)) void copy_in(char *dst, const char *src, size_t n) {
    memcpy(dst, src, n); /* BUG */
}

static __attribute__((noinline)) size_t measure(const char *s, int keep) {
    if (keep) {
        char buf[16];
        copy_in(buf, s, strlen(s) + 1);
        return strlen(buf);
    }
    return 0;
}

int main(void) {
    printf("short: %zu\n", measure("hello", 1));
    printf("long: %zu\n", measure("this string is longer than sixteen", 1));
    return 0;
}
