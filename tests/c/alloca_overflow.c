/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) void copy_in(char *dst, const char *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i]; /* BUG */
}

__attribute__((noinline)) int process(const char *s) {
    /* Forgot the terminator... and allocated by the wrong length. */
    char *tmp = __builtin_alloca(16);
    copy_in(tmp, s, strlen(s) + 1);
    return tmp[0];
}

int main(void) {
    printf("%d\n", process("short"));
    printf("%d\n", process("this string is longer than sixteen"));
    return 0;
}
