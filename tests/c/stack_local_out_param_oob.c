/* gimso-test
 * expect: error out-of-bounds write
 * line: 25
 * stdout:
 * | hello
 */
/* A pointer a callee wrote into a caller's local comes back into the frame
 * with its capability: writing past the end of what it points at (six
 * bytes, rounded up to a word) is caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void get_pair(char **s, long *n) {
    *s = strdup("hello");
    *n = (long)strlen(*s);
}

__attribute__((noinline)) char *fetch(int past) {
    char *s = 0;
    long n = 0;
    get_pair(&s, &n);
    if (!past)
        return s;
    s[n + 3] = '!'; /* BUG */
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    puts(fetch(0));
    fflush(stdout);
    puts(fetch(argc));
    return 0;
}
