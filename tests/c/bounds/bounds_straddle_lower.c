/* gimso-test
 * expect: error out-of-bounds read
 * line: 14
 * stdout:
 * | 1 2
 */
/* An 8-byte read that starts 4 bytes before an object and ends inside it:
 * the full check compares the address with the lower end itself, so the
 * read is caught although its end lies within the object. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long read8(const char *p, long off) {
    return *(const long *)(p + off); /* BUG at -4 */
}

int main(int argc, char **argv) {
    (void)argv;
    long *v = malloc(2 * sizeof(long));
    v[0] = 1;
    v[1] = 2;
    printf("%ld %ld\n", read8((char *)v, 0), read8((char *)v, 8));
    fflush(stdout);
    printf("%ld\n", read8((char *)v, -4 * argc));
    return 0;
}
