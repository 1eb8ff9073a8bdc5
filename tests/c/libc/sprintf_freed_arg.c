/* gimso-test
 * expect: error use after free
 * line: 18
 * stdout:
 * | user=root
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *user = strdup("root");
    char line[64];
    snprintf(line, sizeof line, "user=%s", user);
    printf("%s\n", line);
    fflush(stdout);
    free(user);
    snprintf(line, sizeof line, "user=%s", user); /* BUG */
    printf("%s\n", line);
    return 0;
}
