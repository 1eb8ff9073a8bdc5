/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void publish(_Atomic(int *) *slots, int i, int *v) {
    atomic_store(&slots[i], v); /* BUG */
}

int main(void) {
    _Atomic(int *) *slots = calloc(4, sizeof *slots);
    int x = 1;
    for (int i = 0; i <= 4; i++)
        publish(slots, i, &x);
    printf("%d\n", *atomic_load(&slots[0]));
    return 0;
}
