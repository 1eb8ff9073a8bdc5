/* gimso-test
 * expect: error use after free
 * line: 14
 * native: plain clang -O2 may fold the malloc/free pair away
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int *p = malloc(4 * sizeof(int));
    p[0] = 11;
    p[1] = 22;
    free(p);
    printf("%d\n", p[1]); /* BUG */
    return 0;
}
