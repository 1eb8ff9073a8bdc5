/* gimso-test
 * expect: error use after free
 * line: 17
 * stdout:
 * | hi
 * | status 0
 */
#include <stdio.h>

int main(void) {
    FILE *p = popen("echo hi", "r");
    char buf[16];
    fputs(fgets(buf, sizeof buf, p), stdout);
    printf("status %d\n", pclose(p));
    fflush(stdout);
    /* pclose freed the stream. */
    fgets(buf, sizeof buf, p); /* BUG */
    fputs(buf, stdout);
    return 0;
}
