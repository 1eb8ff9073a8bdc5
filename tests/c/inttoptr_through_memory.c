/* gimso-test
 * expect: error access through pointer with null capability
 * line: 24
 * native: no-asan (the address is valid natively)
 * stdout:
 * | same address: yes
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* An integer loaded from memory carries no capability. */
__attribute__((noinline)) void stash(uintptr_t *slot, int *p) { *slot = (uintptr_t)p; }
__attribute__((noinline)) int *unstash(uintptr_t *slot) { return (int *)*slot; }

int main(void) {
    int *data = malloc(4 * sizeof(int));
    data[1] = 9;
    uintptr_t *slot = malloc(sizeof *slot);
    stash(slot, data);
    int *back = unstash(slot);
    printf("same address: %s\n", back == data ? "yes" : "no");
    fflush(stdout);
    printf("%d\n", back[1]); /* BUG */
    return 0;
}
