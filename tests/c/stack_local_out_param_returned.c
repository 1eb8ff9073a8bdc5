/* gimso-test
 * expect: error out-of-bounds write
 * line: 34
 * stdout:
 * | hello 5
 * | jello
 */
/* A pointer a callee wrote into a caller's local, which the caller only
 * returns: the local stays in the frame (the call gets a copy, copied back
 * when it returns), and the pointer comes back with its capability, so the
 * caller's caller can use it, and writing past its end is caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void get_pair(char **s, long *n) {
    *s = strdup("hello");
    *n = (long)strlen(*s);
}

__attribute__((noinline)) char *make(long *len) {
    char *s = 0;
    get_pair(&s, len);
    return s;
}

int main(void) {
    long n;
    char *s = make(&n);
    printf("%s %ld\n", s, n);
    s[0] = 'j';
    printf("%s\n", s);
    fflush(stdout);
    s[n + 3] = '!'; /* BUG */
    return 0;
}
