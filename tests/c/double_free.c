/* gimso-test
 * expect: error double free
 * line: 13
 * stdout:
 * | first free done
 */
#include <stdio.h>
#include <stdlib.h>

static int released;

__attribute__((noinline)) void release(char *p) {
    free(p); /* BUG */
    released++;
}

int main(void) {
    char *p = malloc(32);
    p[0] = 'x';
    printf("%s\n", "first free done" + (p[0] != 'x'));
    release(p);
    fflush(stdout);
    release(p);
    printf("not reached %d\n", released);
    return 0;
}
