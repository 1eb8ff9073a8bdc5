/* gimso-test
 * expect: run
 * stdout:
 * | hello, world (12 bytes)
 * | ints: 0 1 4 9 16 25
 * | grown: 0 1 4 9 16 25 36 49
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct str {
    size_t len;
    char data[];
};

struct ints {
    int n;
    int v[];
};

static struct str *mkstr(const char *s) {
    size_t n = strlen(s);
    struct str *r = malloc(sizeof *r + n + 1);
    r->len = n;
    memcpy(r->data, s, n + 1);
    return r;
}

int main(void) {
    struct str *s = mkstr("hello, world");
    printf("%s (%zu bytes)\n", s->data, s->len);
    struct ints *a = malloc(sizeof *a + 6 * sizeof(int));
    a->n = 6;
    for (int i = 0; i < a->n; i++)
        a->v[i] = i * i;
    printf("ints:");
    for (int i = 0; i < a->n; i++)
        printf(" %d", a->v[i]);
    printf("\n");
    a = realloc(a, sizeof *a + 8 * sizeof(int));
    a->v[6] = 36;
    a->v[7] = 49;
    a->n = 8;
    printf("grown:");
    for (int i = 0; i < a->n; i++)
        printf(" %d", a->v[i]);
    printf("\n");
    free(a);
    free(s);
    return 0;
}
