/* gimso-test
 * expect: error invalid free of special object
 * line: 12
 */
#include <stdio.h>
#include <stdlib.h>

static int answer(void) { return 42; }

int main(void) {
    printf("%d\n", answer());
    free((void *)answer); /* BUG */
    printf("not reached\n");
    return 0;
}
