/* gimso-test
 * expect: error out-of-bounds write
 * line: 19
 * stdout:
 * | short line
 */
#include <stdio.h>

int main(void) {
    FILE *f = tmpfile();
    fputs("short line\nthis line is longer than the buffer\n", f);
    rewind(f);
    char buf[16];
    if (fgets(buf, sizeof buf, f))
        printf("%s", buf);
    fflush(stdout);
    /* The size passed is larger than the buffer: fgets stores the whole
     * 36-byte line into 16 bytes. */
    fgets(buf, 64, f); /* BUG */
    printf("%s", buf);
    return 0;
}
