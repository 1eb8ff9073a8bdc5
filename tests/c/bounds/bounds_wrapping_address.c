/* gimso-test
 * expect: error out-of-bounds read
 * line: 17
 * stdout:
 * | 7
 */
/* A pointer moved (by unchecked arithmetic) to the top of the address
 * space, 4 bytes below 2^64: a 4-byte read there would end at address 0
 * once wrapped. The check compares the address with the object's lower
 * end as a signed number, so it is reported instead of passing the upper
 * compare and faulting. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int read_at(const char *p, uintptr_t off) {
    return *(const int *)(p + off); /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    int *v = malloc(4 * sizeof(int));
    v[0] = 7;
    printf("%d\n", read_at((const char *)v, 0));
    fflush(stdout);
    uintptr_t off = (uintptr_t)0 - 4 * (uintptr_t)argc - (uintptr_t)v;
    printf("%d\n", read_at((const char *)v, off));
    return 0;
}
