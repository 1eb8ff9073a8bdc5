/* gimso-test
 * expect: error out-of-bounds write
 * line: 15
 */
/* snprintf told the buffer holds 64 bytes when it holds 8: the formatted
 * text (29 bytes with its NUL) would overflow it. The bytes snprintf
 * writes are checked before it writes any. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char buf[8];
    size_t claimed = 64;
    const char *name = "a name longer than the buffer";
    int n = snprintf(buf, claimed, "%s", name); /* BUG */
    printf("%d %zu\n", n, strlen(buf));
    return 0;
}
