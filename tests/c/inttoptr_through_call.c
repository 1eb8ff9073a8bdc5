/* gimso-test
 * expect: error access through pointer with null capability
 * line: 16
 * native: no-asan (the address is valid natively)
 */
/* By default an integer keeps no capability across a call: a pointer
 * passed as `unsigned long` (Oniguruma's and Ruby's st.c tables) converts
 * back to a pointer without one. -fgimso-exposed-provenance accepts this
 * (tests/c/exposed_provenance.c). */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long data_t;

static int __attribute__((noinline)) first(data_t key) {
    return ((int *)key)[0]; /* BUG */
}

int main(void) {
    int *a = malloc(4 * sizeof *a);
    a[0] = 7;
    printf("%d\n", first((data_t)a));
    return 0;
}
