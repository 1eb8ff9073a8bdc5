/* gimso-test
 * expect: error invalid free of pointer with no capability
 * line: 25
 * native: no-asan (natively it is the same address, a valid free)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The address as a number parsed from text: an integer with no pointer
 * behind it, so no capability (one made from `p` itself would carry p's). */
__attribute__((noinline)) uintptr_t handle_of(void *p) {
    char text[32];
    snprintf(text, sizeof text, "%p", p);
    return (uintptr_t)strtoull(text, NULL, 16);
}
__attribute__((noinline)) void *from_handle(uintptr_t *slot) { return (void *)*slot; }

int main(void) {
    void *p = malloc(32);
    uintptr_t *slot = malloc(sizeof *slot);
    *slot = handle_of(p);
    void *q = from_handle(slot); /* an integer from memory: no capability */
    printf("same address %d\n", q == p);
    free(q); /* BUG */
    printf("not reached\n");
    return 0;
}
