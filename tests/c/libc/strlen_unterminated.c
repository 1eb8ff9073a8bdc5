/* gimso-test
 * expect: error out-of-bounds read
 * line: 12
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t total;

__attribute__((noinline)) void measure(const char *s) {
    total += strlen(s); /* BUG */
}

int main(void) {
    char *s = malloc(16);
    memset(s, 'a', 16); /* no terminator */
    measure("ok");
    measure(s);
    printf("%zu\n", total);
    return 0;
}
