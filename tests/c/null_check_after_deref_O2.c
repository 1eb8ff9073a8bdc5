/* gimso-test
 * expect: error access through pointer with null capability
 * line: 10
 * native: plain clang -O2 deletes the null check after the dereference
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int first_or_zero(int *p) {
    int v = *p; /* BUG */
    if (!p)
        return v - 1; /* v is used on both paths: the load cannot sink */
    return v;
}

int main(int argc, char **argv) {
    (void)argv;
    int *p = argc > 100 ? malloc(sizeof(int)) : NULL;
    printf("%d\n", first_or_zero(p));
    return 0;
}
