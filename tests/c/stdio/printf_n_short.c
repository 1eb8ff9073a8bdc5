/* gimso-test
 * expect: error out-of-bounds write
 * line: 15
 */
#include <stdio.h>

#pragma clang diagnostic ignored "-Wformat"

int main(void) {
    int n = 0;
    printf("hello\n%n", &n);
    printf("counted %d\n", n);
    short counts[4] = {0, 0, 0, 0};
    /* %n writes an int: 4 bytes into the 2-byte last element. */
    printf("hello\n%n", &counts[3]); /* BUG */
    printf("counted %d\n", counts[3]);
    return 0;
}
