/* gimso-test
 * expect: error access through pointer with null capability
 * line: 40
 * native: no-asan (the address is valid natively)
 * stdout:
 * | same address 1
 */
/* A pointer loaded from a heap object that never held one has no
 * capability, whatever its bytes say. The buffer (larger than the objects
 * born with inline shadow words) gets the address of a live object written
 * byte by byte; the load reads its capability where the object's aux word
 * leads, the runtime's zero region, not the payload: taking the payload's
 * bytes for the capability would make this pointer valid. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int target = 7;

__attribute__((noinline)) static void write_address(unsigned char *buf, uintptr_t a) {
    for (volatile int i = 0; i < 8; i++)
        buf[8 + i] = (unsigned char)(a >> (8 * i));
}

__attribute__((noinline)) static int *read_pointer(unsigned char *buf) {
    return *(int **)(buf + 8);
}

int main(void) {
    unsigned char *buf = malloc(4096);
    memset(buf, 0, 4096);
    char text[32];
    snprintf(text, sizeof text, "%p", (void *)&target);
    void *parsed = NULL;
    sscanf(text, "%p", &parsed);
    write_address(buf, (uintptr_t)parsed);
    int *p = read_pointer(buf);
    printf("same address %d\n", p == (int *)&target);
    return *p; /* BUG */
}
