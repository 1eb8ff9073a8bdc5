/* gimso-test
 * expect: error use after free
 * line: 15
 * stdout:
 * | closed 0
 */
#include <stdio.h>

int main(void) {
    FILE *f = tmpfile();
    fputs("data", f);
    printf("closed %d\n", fclose(f));
    fflush(stdout);
    /* The stream is gone: its FILE was freed by fclose. */
    fprintf(f, "more %d\n", 1); /* BUG */
    return 0;
}
