/* gimso-test
 * expect: run
 * exit: 42
 * stdout:
 * | returning
 */
#include <stdio.h>

int main(void) {
    printf("returning\n");
    return 42;
}
