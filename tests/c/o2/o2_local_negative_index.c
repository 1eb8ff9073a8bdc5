/* gimso-test
 * expect: error out-of-bounds read
 * line: 13
 */
/* A load at a negative index of a local array: reported at -O0 and -O2. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int a[4] = {1, 2, 3, 4};
    int i = atoi(argc > 5 ? argv[1] : "-1");
    printf("a[0] %d\n", a[0]);
    printf("%d\n", a[i]); /* BUG */
    return 0;
}
