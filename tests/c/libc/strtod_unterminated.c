/* gimso-test
 * expect: error out-of-bounds read
 * line: 19
 * native: no-asan (ASan does not check what strtod reads)
 * stdout:
 * | first 12.5
 */
/* A number that runs to the end of its buffer: strtod reads the byte
 * after it to see whether the number goes on, past the object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *buf = malloc(8);
    memcpy(buf, "12.5 678", 8); /* no terminator */
    char *end;
    printf("first %.1f\n", strtod(buf, &end));
    printf("second %f\n", strtod(end, &end)); /* BUG */
    free(buf);
    return 0;
}
