/* gimso-test
 * expect: error out-of-bounds write
 * line: 9
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void corrupt_header(long *payload) {
    payload[-2] = 0x4141414141414141L; /* BUG */
}

int main(void) {
    long *p = malloc(4 * sizeof(long));
    p[0] = 1;
    corrupt_header(p);
    printf("survived %ld\n", p[0]);
    return 0;
}
