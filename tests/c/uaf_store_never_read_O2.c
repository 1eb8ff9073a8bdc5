/* gimso-test
 * expect: error use after free
 * line: 13
 * native: plain clang -O2 deletes the dead store and the allocation
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    long *p = malloc(2 * sizeof(long));
    p[0] = 1;
    free(p);
    p[1] = 2; /* BUG */
    printf("not reached\n");
    return 0;
}
