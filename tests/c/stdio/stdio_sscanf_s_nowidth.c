/* gimso-test
 * expect: error out-of-bounds write
 * line: 11
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char *word = malloc(5);
    /* No width: the word is longer than the 5-byte object. */
    int r = sscanf("  elephant rest", "%s", word); /* BUG */
    printf("%d '%s'\n", r, word);
    free(word);
    return 0;
}
