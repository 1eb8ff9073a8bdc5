/* gimso-test
 * expect: error out-of-bounds write
 * line: 11
 * stdout:
 * | ok: hello
 */
#include <stdio.h>

__attribute__((noinline)) void copy_name(char *dst, const char *src) {
    while (*src)
        *dst++ = *src++; /* BUG */
    *dst = 0;
}

__attribute__((noinline)) void greet(const char *who) {
    char buf[16];
    copy_name(buf, who);
    printf("ok: %s\n", buf);
}

int main(void) {
    greet("hello");
    fflush(stdout);
    greet("a name much longer than sixteen bytes");
    return 0;
}
