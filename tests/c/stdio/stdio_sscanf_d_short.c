/* gimso-test
 * expect: error out-of-bounds write
 * line: 17
 * stdout:
 * | 1 7
 */
#include <stdio.h>

#pragma clang diagnostic ignored "-Wformat"

int main(void) {
    short v[4] = {0, 0, 0, 0};
    int r = sscanf("7", "%hd", &v[3]);
    printf("%d %d\n", r, v[3]);
    fflush(stdout);
    /* %d stores an int: 4 bytes into the 2-byte last element. */
    r = sscanf("70000", "%d", &v[3]); /* BUG */
    printf("%d %d\n", r, v[3]);
    return 0;
}
