/* gimso-test
 * expect: error write to read-only object
 * line: 10
 */
#include <stdio.h>
#include <string.h>

int main(void) {
    char *s = (char *)"read only, literal";
    char *t = strtok(s, ","); /* BUG */
    printf("%s\n", t);
    return 0;
}
