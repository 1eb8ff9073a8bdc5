/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 */
/* A memcpy of constant length past the end of a local array: SROA (run at
 * every level) would narrow it to the array; it is kept whole and
 * reported. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char a[8];
    char b[16] = "0123456789abcde";
    memcpy(a, b, 12); /* BUG */
    printf("%c\n", a[0]);
    return 0;
}
