/* gimso-test
 * expect: run
 * stdout:
 * | unset var: null
 * | rand repeatable: yes
 * | rand in range: yes
 * | errno after strtoul("-"): 0
 * | argc 1 argv0 set argv[argc] null
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    printf("unset var: %s\n", getenv("GIMSO_TEST_SURELY_UNSET_VARIABLE") ? "set" : "null");
    srand(12345);
    int a[5];
    for (int i = 0; i < 5; i++)
        a[i] = rand();
    srand(12345);
    int same = 1, range = 1;
    for (int i = 0; i < 5; i++) {
        int r = rand();
        same &= r == a[i];
        range &= r >= 0 && r <= RAND_MAX;
    }
    printf("rand repeatable: %s\n", same ? "yes" : "no");
    printf("rand in range: %s\n", range ? "yes" : "no");
    errno = 0;
    (void)strtoul("-", NULL, 10);
    printf("errno after strtoul(\"-\"): %d\n", errno == EINVAL ? 0 : errno);
    printf("argc %d argv0 %s argv[argc] %s\n", argc, argv[0] && argv[0][0] ? "set" : "empty",
           argv[argc] ? "non-null" : "null");
    return 0;
}
