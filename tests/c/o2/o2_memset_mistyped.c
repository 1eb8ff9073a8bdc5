/* gimso-test
 * expect: error argument size mismatch
 * stdout:
 * | before
 */
/* memset called through a pointer to a function of two parameters: the
 * length is missing, whatever the level. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char buf[4] = "abc";
    void *(*ms)(void *, int) = (void *(*)(void *, int))memset;
    printf("before\n");
    fflush(stdout);
    ms(buf, 0);
    printf("%s\n", buf);
    return 0;
}
