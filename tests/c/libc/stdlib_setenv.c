/* gimso-test
 * expect: error out-of-bounds read
 * line: 45
 * native: differs (putenv keeps a copy under gimso: changing the string later does not change the environment)
 * stdout:
 * | set one
 * | kept one
 * | replaced two
 * | putenv three
 * | putenv copy three
 * | putenv remove 1
 * | unset 1
 * | bad name -1 EINVAL 1
 * | cleared 1
 */
/* setenv/unsetenv/putenv/clearenv: the environment gets copies; a name
 * without its NUL inside its object is caught. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    setenv("GIMSO_TEST_VAR", "one", 1);
    printf("set %s\n", getenv("GIMSO_TEST_VAR"));
    setenv("GIMSO_TEST_VAR", "two", 0);
    printf("kept %s\n", getenv("GIMSO_TEST_VAR"));
    setenv("GIMSO_TEST_VAR", "two", 1);
    printf("replaced %s\n", getenv("GIMSO_TEST_VAR"));
    char entry[] = "GIMSO_TEST_VAR=three";
    putenv(entry);
    printf("putenv %s\n", getenv("GIMSO_TEST_VAR"));
    entry[15] = 'X';
    printf("putenv copy %s\n", strcmp(getenv("GIMSO_TEST_VAR"), "three") == 0 ? "three" : "changed");
    putenv("GIMSO_TEST_VAR");
    printf("putenv remove %d\n", getenv("GIMSO_TEST_VAR") == NULL);
    setenv("GIMSO_TEST_VAR", "four", 1);
    unsetenv("GIMSO_TEST_VAR");
    printf("unset %d\n", getenv("GIMSO_TEST_VAR") == NULL);
    printf("bad name %d EINVAL %d\n", setenv("A=B", "x", 1), errno == EINVAL);
    clearenv();
    printf("cleared %d\n", getenv("PATH") == NULL);
    char name[8] = {'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'};
    return setenv(name, "x", 1);
}
