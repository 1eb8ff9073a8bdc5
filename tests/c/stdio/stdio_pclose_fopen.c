/* gimso-test
 * expect: error invalid FILE pointer
 * line: 12
 */
#include <stdio.h>

int main(void) {
    FILE *f = tmpfile();
    fputs("data", f);
    /* pclose of a stream popen did not open: glibc would quietly fclose
     * it (and return a meaningless status); gimso refuses the pointer. */
    int status = pclose(f); /* BUG */
    printf("status %d\n", status);
    return 0;
}
