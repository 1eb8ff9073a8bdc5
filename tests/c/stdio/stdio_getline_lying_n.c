/* gimso-test
 * expect: error out-of-bounds write
 * line: 16
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    FILE *f = tmpfile();
    fputs("a line longer than sixteen bytes, which getline stores in place\n", f);
    rewind(f);
    char *line = malloc(16);
    /* *n says the buffer has 128 bytes: getline would write the 65-byte
     * line into the 16-byte object instead of growing it. */
    size_t n = 128;
    ssize_t len = getline(&line, &n, f); /* BUG */
    printf("%zd %s", len, line);
    free(line);
    return 0;
}
