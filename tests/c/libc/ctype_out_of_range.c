/* gimso-test
 * expect: error out-of-bounds read
 * line: 17
 * stdout:
 * | in range: 1 0
 */
/* The <ctype.h> classification macros index glibc's tables, which cover
 * -128..255 (and EOF). A value outside that range reads past the table:
 * natively a wild read, here a checked one. */
#include <ctype.h>
#include <stdio.h>

int main(void) {
    volatile int c = 'a', d = '1';
    printf("in range: %d %d\n", isalpha(c) != 0, isalpha(d) != 0);
    volatile int big = 100000;
    printf("%d\n", isalpha(big) != 0); /* BUG */
    return 0;
}
