/* gimso-test
 * expect: error out-of-bounds write
 * line: 19
 * stdout:
 * | 1 5
 */
#include <stdio.h>
#include <stdlib.h>

#pragma clang diagnostic ignored "-Wformat"

int main(void) {
    char *counts = malloc(8);
    int word = 0, n = 0;
    int r = sscanf("12345 abc", "%d%n", &word, &n);
    printf("%d %d\n", r, n);
    fflush(stdout);
    /* %n stores an int: 4 bytes at offset 6 of an 8-byte object. */
    r = sscanf("12345 abc", "%d%n", &word, &counts[6]); /* BUG */
    printf("%d %d\n", r, counts[6]);
    free(counts);
    return 0;
}
