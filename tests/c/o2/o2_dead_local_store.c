/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 */
/* A store past the end of a local array whose value is never read again:
 * the optimiser would delete it at -O2; the guard placed before it keeps
 * the bug, reported at the same line as at -O0. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    char a[10];
    int i = atoi(argc > 5 ? argv[1] : "10");
    a[i] = 1; /* BUG */
    printf("stored\n");
    return 0;
}
