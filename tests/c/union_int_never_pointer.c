/* gimso-test
 * expect: error access through pointer with null capability
 * line: 25
 * native: no-asan (the forged pointer is a valid address natively)
 * stdout:
 * | before
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

union slot {
    int *p;
    uintptr_t i;
};

int target = 5;

/* Only an integer is ever stored in the slot, so a pointer loaded from it
 * has the null capability even though its address is valid. (The integer
 * is parsed from text: a uintptr_t made from the pointer itself would
 * carry its capability, across calls too, as a union's pointer does.) */
__attribute__((noinline)) void set_int(union slot *s, uintptr_t v) { s->i = v; }
__attribute__((noinline)) int read_through(union slot *s) {
    return *s->p; /* BUG */
}
__attribute__((noinline)) uintptr_t address_of_target(void) {
    char text[32];
    snprintf(text, sizeof text, "%p", (void *)&target);
    return (uintptr_t)strtoull(text, NULL, 16);
}

int main(void) {
    union slot *s = malloc(sizeof *s);
    set_int(s, address_of_target());
    printf("before\n");
    printf("value %d\n", read_through(s));
    return 0;
}
