/* gimso-test
 * expect: error out-of-bounds read
 * line: 17
 * stdout:
 * | abcd
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char *data = malloc(4);
    data[0] = 'a', data[1] = 'b', data[2] = 'c', data[3] = 'd';
    fwrite(data, 1, 4, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    /* 16 bytes from a 4-byte object. */
    fwrite(data, 1, 16, stdout); /* BUG */
    free(data);
    return 0;
}
