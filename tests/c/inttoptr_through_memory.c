/* gimso-test
 * expect: run
 * stdout:
 * | same address: yes
 * | 9
 * | kept: 9, other slot: 4
 */
/* A pointer written to memory as a uintptr_t and read back as a pointer
 * keeps its capability: the store of an integer that holds exactly one
 * capability (here the ptrtoint of `data`) stores that capability too.
 * This departs from the spec, where an integer store leaves the
 * capability at rest, because the optimiser itself turns pointer stores
 * into such integer stores (SROA rewriting a union slot as an i64). An
 * integer with no capability (arithmetic on two pointers) stored over a
 * slot leaves the capability there, as the spec says. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void stash(uintptr_t *slot, int *p) { *slot = (uintptr_t)p; }
__attribute__((noinline)) int *unstash(uintptr_t *slot) { return (int *)*slot; }
__attribute__((noinline)) void scribble(uintptr_t *slot, int *a, int *b) {
    *slot = (uintptr_t)a + ((uintptr_t)b - (uintptr_t)a);
}

int main(void) {
    int *data = malloc(4 * sizeof(int));
    data[1] = 9;
    int *other = malloc(4 * sizeof(int));
    other[1] = 4;
    uintptr_t *slot = malloc(sizeof *slot);
    stash(slot, data);
    int *back = unstash(slot);
    printf("same address: %s\n", back == data ? "yes" : "no");
    printf("%d\n", back[1]);
    uintptr_t *slot2 = malloc(sizeof *slot2);
    stash(slot2, data);
    scribble(slot2, data, other);
    int *mixed = unstash(slot2);
    printf("kept: %d, other slot: %d\n", back[1], mixed == other ? 4 : -1);
    return 0;
}
