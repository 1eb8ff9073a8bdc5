/* gimso-test
 * expect: run
 * exit: 134
 * stderr: regexec: the regex_t was not compiled by regcomp, or was freed by regfree
 * native: differs (natively regexec after regfree reads freed memory: undefined behaviour)
 * stdout:
 * | first 0
 */
/* Using a regex_t after regfree stops the program with a clear error. */
#include <regex.h>
#include <stdio.h>

int main(void) {
    regex_t re;
    regcomp(&re, "a", 0);
    printf("first %d\n", regexec(&re, "cat", 0, NULL, 0));
    regfree(&re);
    return regexec(&re, "cat", 0, NULL, 0);
}
