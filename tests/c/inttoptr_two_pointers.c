/* gimso-test
 * expect: error access through pointer with null capability
 * line: 15
 * native: no-asan (the address is valid natively)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The integer depends on two pointers (b >> 60 is 0 at run time, which the
 * compiler cannot know), so its capability is ambiguous: null. */
__attribute__((noinline)) int read_mixed(int *a, int *b) {
    uintptr_t x = (uintptr_t)a + ((uintptr_t)b >> 60);
    int *p = (int *)x;
    return *p; /* BUG */
}

int main(void) {
    int *a = malloc(4 * sizeof(int));
    int *b = malloc(4 * sizeof(int));
    a[0] = 1;
    b[0] = 2;
    printf("%d\n", read_mixed(a, b));
    return 0;
}
