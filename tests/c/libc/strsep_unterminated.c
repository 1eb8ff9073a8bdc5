/* gimso-test
 * expect: error out-of-bounds read
 * line: 14
 */
/* strsep on a buffer with no terminating NUL: the scan for the delimiter
 * runs off the end of the array. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char buf[8];
    memcpy(buf, "abcdefgh", 8);
    char *p = buf;
    char *tok = strsep(&p, ","); /* BUG */
    printf("%s\n", tok);
    return 0;
}
