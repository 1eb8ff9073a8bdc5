/* gimso-test
 * expect: error out-of-bounds write
 * line: 17
 * stdout:
 * | read 8
 */
#include <stdio.h>

int main(void) {
    FILE *f = tmpfile();
    fputs("0123456789abcdefghijklmnopqrstuvwxyz", f);
    rewind(f);
    int words[2];
    printf("read %zu\n", fread(words, 1, sizeof words, f));
    fflush(stdout);
    /* Four ints into an array of two. */
    size_t n = fread(words, sizeof(int), 4, f); /* BUG */
    printf("read %zu\n", n);
    return 0;
}
