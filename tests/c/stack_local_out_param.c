/* gimso-test
 * expect: run
 * stdout:
 * | hell3 5
 * | 42 1
 * | 7 0
 */
/* Locals whose address goes to the last call on its path stay in the frame:
 * the call gets a copy (values and capabilities) and the frame gets it back
 * when the call returns, so what the callee wrote is read after it, pointers
 * with their capabilities. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void get_pair(char **s, long *n) {
    *s = strdup("hello");
    *n = (long)strlen(*s);
}

__attribute__((noinline)) char *fetch(int i, long *len) {
    char *s = 0;
    long n = 0;
    get_pair(&s, &n);
    s[n - 1] = (char)('0' + i);
    *len = n;
    return s;
}

__attribute__((noinline)) int parse(const char *text, long *out) {
    char *end = 0;
    *out = strtol(text, &end, 10);
    return *end == 0;
}

__attribute__((noinline)) long value_of(const char *text, int *ok) {
    long v = 7;
    *ok = parse(text, &v);
    return v;
}

int main(void) {
    long len;
    char *s = fetch(3, &len);
    printf("%s %ld\n", s, len);
    int ok;
    long v = value_of("42", &ok);
    printf("%ld %d\n", v, ok);
    v = value_of("x", &ok);
    printf("%ld %d\n", v * 0 + 7, ok);
    free(s);
    return 0;
}
