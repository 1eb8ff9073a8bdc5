/* gimso-test
 * expect: error access through pointer with null capability
 * line: 38
 * native: no-asan (the address is valid natively)
 * stdout:
 * | same address 1
 */
/* A pointer loaded from a global that never held one has no capability,
 * whatever its bytes say: a global's aux word leads to its own (zero)
 * shadow words, never to its payload. The array gets the address of a
 * live object written byte by byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int target = 7;
static unsigned char bytes[40];

__attribute__((noinline)) static void write_address(unsigned char *buf, uintptr_t a) {
    for (volatile int i = 0; i < 8; i++)
        buf[16 + i] = (unsigned char)(a >> (8 * i));
}

__attribute__((noinline)) static int *read_pointer(unsigned char *buf) {
    return *(int **)(buf + 16);
}

int main(void) {
    char text[32];
    snprintf(text, sizeof text, "%p", (void *)&target);
    void *parsed = NULL;
    sscanf(text, "%p", &parsed);
    write_address(bytes, (uintptr_t)parsed);
    int *p = read_pointer(bytes);
    printf("same address %d\n", p == (int *)&target);
    volatile int *q = p;
    int v = target;
    return v + *q; /* BUG */
}
