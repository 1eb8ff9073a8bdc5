#include <stdio.h>

long add3(long a, long b, long c);
char *pick(char *s, long i);

int main(void) {
    char text[] = "direct";
    printf("%ld %s\n", add3(1, 2, 3), pick(text, 2));
    /* The capability travels with the pointer through the direct call:
     * reading past the array (7 bytes, an 8-byte object) is still caught. */
    char *end = pick(text, 8);
    return *end; /* BUG: past the end */
}
