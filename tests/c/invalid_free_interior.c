/* gimso-test
 * expect: error invalid free of interior pointer
 * line: 14
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *s = malloc(32);
    strcpy(s, "key=value");
    char *v = strchr(s, '=') + 1;
    printf("%s\n", v);
    free(v); /* BUG */
    return 0;
}
