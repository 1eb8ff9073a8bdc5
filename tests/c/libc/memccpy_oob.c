/* gimso-test
 * expect: error out-of-bounds write
 * line: 23
 * stdout:
 * | copied 4: abc:
 * | no stop: null 1
 */
/* memccpy copies up to and including the first stop byte; only the bytes
 * it copies must fit. A copy that runs past the destination is caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *dst = malloc(5);
    char *end = memccpy(dst, "abc:def", ':', 100);
    printf("copied %d: %.4s\n", (int)(end - dst), dst);
    char *none = memccpy(dst, "xyz", '#', 3);
    printf("no stop: %s %d\n", none ? "set" : "null", memcmp(dst, "xyz:", 4) == 0);
    char src[8] = "123456:";
    /* The stop byte is the seventh: six bytes past the five-byte object
     * would follow the first five. */
    memccpy(dst, src, ':', sizeof src); /* BUG */
    return 0;
}
