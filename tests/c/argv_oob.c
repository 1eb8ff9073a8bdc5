/* gimso-test
 * expect: error out-of-bounds read
 * line: 14
 * native: no-asan (natively argv is followed by envp)
 * stdout:
 * | argc 1
 */
#include <stdio.h>

int main(int argc, char **argv) {
    printf("argc %d\n", argc);
    fflush(stdout);
    /* argv has argc + 1 entries; reading two past the terminator. */
    const char *beyond = argv[argc + 2]; /* BUG */
    printf("%s\n", beyond ? "something" : "null");
    return 0;
}
