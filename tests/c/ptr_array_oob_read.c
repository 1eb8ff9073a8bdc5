/* gimso-test
 * expect: error out-of-bounds read
 * line: 13
 * stdout:
 * | one two three four
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void print_words(char **w, int n) {
    const char *copy[8];
    for (int i = 0; i < n; i++)
        copy[i] = w[i]; /* BUG */
    for (int i = 0; i < n; i++)
        printf(i ? " %s" : "%s", copy[i]);
    printf("\n");
}

int main(void) {
    char **w = malloc(4 * sizeof(char *));
    w[0] = "one";
    w[1] = "two";
    w[2] = "three";
    w[3] = "four";
    print_words(w, 4);
    fflush(stdout);
    print_words(w, 5);
    free(w);
    return 0;
}
