/* gimso-test
 * expect: error access through pointer with null capability
 * line: 27
 * stdout:
 * | found 2
 */
#include <stdio.h>
#include <string.h>

struct entry {
    const char *key;
    int value;
};

static struct entry entries[] = {{"a", 1}, {"b", 2}, {"c", 3}};

__attribute__((noinline)) struct entry *lookup(const char *key) {
    for (int i = 0; i < 3; i++)
        if (strcmp(entries[i].key, key) == 0)
            return &entries[i];
    return NULL;
}

int main(void) {
    printf("found %d\n", lookup("b")->value);
    fflush(stdout);
    printf("found %d\n", lookup("z")->value); /* BUG */
    return 0;
}
