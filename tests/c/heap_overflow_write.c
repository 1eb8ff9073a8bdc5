/* gimso-test
 * expect: error out-of-bounds write
 * line: 12
 * stdout:
 * | filled 16
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void put(char *buf, long i, char c) {
    buf[i] = c; /* BUG */
}

int main(void) {
    char *buf = malloc(16);
    for (long i = 0; i < 16; i++)
        put(buf, i, 'a' + (char)i);
    printf("filled %d\n", (int)sizeof(long) * 2);
    fflush(stdout);
    put(buf, 16, 'x');
    printf("%c\n", buf[0]);
    free(buf);
    return 0;
}
