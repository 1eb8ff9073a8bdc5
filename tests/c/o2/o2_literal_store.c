/* gimso-test
 * expect: error write to read-only object
 * line: 11
 */
/* A store into a string literal, whose value is never read: deleted by the
 * optimiser as a store to constant memory unless kept. */
#include <stdio.h>

int main(void) {
    char *s = (char *)"x";
    s[0] = 'y'; /* BUG */
    printf("stored\n");
    return 0;
}
