/* gimso-test
 * expect: run
 * stdout:
 * | aligned read: 100
 * | masked + offset: 103
 * | tagged: 102
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int stuff(int x) { return x > 2; }
__attribute__((noinline)) uintptr_t get_offset(int x) { return (uintptr_t)x * sizeof(int); }

/* The spec's example: an integer computed from exactly one pointer keeps
 * that pointer's capability when it is cast back. */
__attribute__((noinline)) int *adjust(int *p, int k) {
    p = (int *)(((uintptr_t)p & ~(uintptr_t)7) + (stuff(k) ? get_offset(k) : 0));
    return p;
}

int main(void) {
    int *arr = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        arr[i] = 100 + i;
    /* arr is 16-byte aligned; arr + 1 rounds down to arr. */
    printf("aligned read: %d\n", *adjust(arr + 1, 0));
    printf("masked + offset: %d\n", *adjust(arr + 1, 3));
    /* Low-bit pointer tagging. */
    uintptr_t tagged = (uintptr_t)(arr + 2) | 1;
    int *untagged = (int *)(tagged & ~(uintptr_t)1);
    printf("tagged: %d\n", *untagged);
    free(arr);
    return 0;
}
