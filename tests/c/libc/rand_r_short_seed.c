/* gimso-test
 * expect: error out-of-bounds read
 * line: 18
 * stdout:
 * | first 476707713 ok
 */
/* rand_r reads and writes its 4-byte state: a seed that is the last two
 * bytes of an 8-byte array is caught, not read past. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    unsigned seed = 1;
    printf("first %d %s\n", rand_r(&seed), seed != 1 ? "ok" : "unchanged");
    fflush(stdout);
    unsigned short quarters[4] = {1, 2, 3, 4};
    unsigned *tail = (unsigned *)(void *)&quarters[3];
    int r = rand_r(tail); /* BUG */
    printf("%d\n", r);
    return 0;
}
