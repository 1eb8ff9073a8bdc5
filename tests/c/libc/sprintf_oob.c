/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdio.h>

static int calls;

__attribute__((noinline)) void format_id(char *out, int id, const char *name) {
    sprintf(out, "id=%08d name=%s", id, name); /* BUG */
    calls++;
}

int main(void) {
    char out[16];
    format_id(out, 12345, "a long user name");
    printf("%s\n", out);
    printf("calls %d\n", calls);
    return 0;
}
