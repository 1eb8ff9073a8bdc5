/* gimso-test
 * expect: error use after free
 * line: 24
 * stdout:
 * | message one
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *last_message;

__attribute__((noinline)) void set_message(const char *m) {
    free(last_message);
    last_message = strdup(m);
}

int main(void) {
    set_message("message one");
    char *saved = last_message;
    puts(saved);
    fflush(stdout);
    set_message("message two");
    puts(saved); /* BUG */
    return 0;
}
