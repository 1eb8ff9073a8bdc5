/* gimso-test
 * expect: run
 * exit: 3
 * stdout:
 * | about to exit
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void bail(int c) {
    printf("about to exit\n");
    exit(c);
}

int main(void) {
    bail(3);
    printf("not reached\n");
    return 0;
}
