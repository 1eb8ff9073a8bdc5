/* gimso-test
 * expect: error out-of-bounds read
 * line: 16
 * stdout:
 * | first 7
 */
/* Any index into a one-element array: the optimiser rewrites it to 0 (any
 * other index would be undefined) unless the index is checked first. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int one[1] = {7};
    int i = atoi(argc > 5 ? argv[1] : "1");
    printf("first %d\n", one[0]);
    printf("%d\n", one[i]); /* BUG */
    return 0;
}
