/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 * stdout:
 * | short: ok
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls;

__attribute__((noinline)) void store_name(char *dst, const char *name) {
    strcpy(dst, name); /* BUG */
    calls++;
}

int main(void) {
    char *buf = malloc(8);
    store_name(buf, "ok");
    printf("short: %s\n", buf);
    fflush(stdout);
    store_name(buf, "definitely too long");
    printf("long: %s\n", buf);
    printf("calls %d\n", calls);
    return 0;
}
