/* gimso-test
 * expect: run
 * stdout:
 * | gp -> 17
 * | names: a b c
 * | matrix row 1: 4 5 6
 * | chain: 3 -> 2 -> 1
 * | nested: outer inner 99
 * | self: 2
 * | strings[2][1] = h
 */
#include <stdio.h>

int gx = 17;
int *gp = &gx;
const char *names[] = {"a", "b", "c"};
int rows[2][3] = {{1, 2, 3}, {4, 5, 6}};
int *row_ptrs[] = {rows[0], rows[1]};

struct link {
    int v;
    const struct link *next;
};
static const struct link l1 = {1, NULL};
static const struct link l2 = {2, &l1};
static const struct link l3 = {3, &l2};

struct inner {
    const char *label;
    int *value;
};
struct outer {
    const char *label;
    struct inner in;
};
static int ninety_nine = 99;
struct outer nested = {"outer", {"inner", &ninety_nine}};

int arr[4] = {0, 1, 2, 3};
int *arr_mid = &arr[2];
const char *strings[] = {"one", "two", "three"};
const char **strings_p = strings;

int main(void) {
    printf("gp -> %d\n", *gp);
    printf("names: %s %s %s\n", names[0], names[1], names[2]);
    printf("matrix row 1: %d %d %d\n", row_ptrs[1][0], row_ptrs[1][1], row_ptrs[1][2]);
    printf("chain:");
    for (const struct link *l = &l3; l; l = l->next)
        printf(l == &l3 ? " %d" : " -> %d", l->v);
    printf("\n");
    printf("nested: %s %s %d\n", nested.label, nested.in.label, *nested.in.value);
    printf("self: %d\n", *arr_mid);
    printf("strings[2][1] = %c\n", strings_p[2][1]);
    return 0;
}
