/* gimso-test
 * expect: run
 * exit: 134
 * stdout:
 * | before abort
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("before abort\n");
    fflush(stdout);
    abort();
}
