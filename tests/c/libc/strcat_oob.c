/* gimso-test
 * expect: error out-of-bounds write
 * line: 15
 * stdout:
 * | path: /usr/lib
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls;

__attribute__((noinline)) void join(char *dst, const char *part) {
    strcat(dst, "/");
    strcat(dst, part); /* BUG */
    calls++;
}

int main(void) {
    char *path = calloc(1, 16);
    strcpy(path, "/usr");
    join(path, "lib");
    printf("path: %s\n", path);
    fflush(stdout);
    join(path, "x86_64-linux-gnu");
    printf("path: %s\n", path);
    printf("calls %d\n", calls);
    return 0;
}
