/* gimso-test
 * expect: error out-of-bounds write
 * line: 15
 * stdout:
 * | 1 'abc'
 */
#include <stdio.h>

int main(void) {
    char name[8];
    int r = sscanf("abc", "%7s", name);
    printf("%d '%s'\n", r, name);
    fflush(stdout);
    /* A 12-character word and its NUL into 8 bytes (the width is wrong). */
    r = sscanf("overlongname", "%12s", name); /* BUG */
    printf("%d '%s'\n", r, name);
    return 0;
}
