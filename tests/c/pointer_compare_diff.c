/* gimso-test
 * expect: run
 * stdout:
 * | diff 7 ordered yes
 * | null compares: yes yes
 * | ptrdiff across struct: 16
 * | reverse walk: 5 4 3 2 1
 * | offsetof b 8
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct s {
    long a;
    int b;
    char c[12];
    int d;
};

int main(void) {
    int *a = malloc(10 * sizeof(int));
    int *p = a + 2, *q = a + 9;
    printf("diff %td ordered %s\n", q - p, p < q ? "yes" : "no");
    int *n = NULL;
    printf("null compares: %s %s\n", n == NULL ? "yes" : "no", a != NULL ? "yes" : "no");
    struct s v;
    printf("ptrdiff across struct: %td\n", (char *)&v.d - (char *)&v.b);
    int r[5] = {1, 2, 3, 4, 5};
    printf("reverse walk:");
    for (int *e = r + 5; e-- > r;)
        printf(" %d", *e);
    printf("\n");
    printf("offsetof b %zu\n", offsetof(struct s, b));
    free(a);
    return 0;
}
