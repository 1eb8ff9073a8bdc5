/* gimso-test
 * expect: error write to read-only object
 * line: 13
 * stdout:
 * | HELLO
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) void upcase(char *s) {
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A'); /* BUG */
}

int main(void) {
    char ok[] = "hello";
    upcase(ok);
    printf("%s\n", ok);
    fflush(stdout);
    upcase((char *)"literal");
    return 0;
}
