/* gimso-test
 * expect: error unreachable executed
 * line: 18
 * native: no-asan (undefined behaviour natively)
 * stdout:
 * | kind 1: one
 * | kind 7:
 */
#include <stdio.h>

__attribute__((noinline)) void describe(int kind) {
    printf("kind %d:", kind);
    switch (kind) {
    case 1: printf(" one\n"); return;
    case 2: printf(" two\n"); return;
    }
    printf("\n");
    __builtin_unreachable(); /* BUG */
}

int main(void) {
    describe(1);
    describe(7);
    printf("not reached\n");
    return 0;
}
