/* gimso-test
 * expect: error write to read-only object
 * line: 13
 */
/* mkstemp() rewrites its template in place: a string literal cannot be one
 * (natively a crash writing read-only memory). Checked before the file is
 * made, so no file is left behind. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int make(char *tmpl) {
    return mkstemp(tmpl); /* BUG */
}

int main(void) {
    int fd = make("/tmp/gimso-literal-XXXXXX");
    printf("fd %d\n", fd);
    return 0;
}
