/* gimso-test
 * expect: run
 * stdout:
 * | [name] [value] [x] [y]
 * | fields: 4
 * | csv a,,b -> 2 tokens
 * | words: the quick brown fox
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char line[] = "name=value; x=y";
    int n = 0;
    for (char *t = strtok(line, "=; "); t; t = strtok(NULL, "=; ")) {
        printf(n ? " [%s]" : "[%s]", t);
        n++;
    }
    printf("\nfields: %d\n", n);
    char *csv = strdup("a,,b");
    int k = 0;
    for (char *t = strtok(csv, ","); t; t = strtok(NULL, ","))
        k++;
    printf("csv a,,b -> %d tokens\n", k);
    free(csv);
    char *text = malloc(64);
    strcpy(text, "  the  quick\tbrown\n fox  ");
    printf("words:");
    for (char *t = strtok(text, " \t\n"); t; t = strtok(NULL, " \t\n"))
        printf(" %s", t);
    printf("\n");
    free(text);
    return 0;
}
