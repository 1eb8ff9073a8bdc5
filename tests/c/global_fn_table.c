/* gimso-test
 * expect: run
 * stdout:
 * | add 7
 * | sub -1
 * | mul 12
 * | dispatch: add sub mul
 * | vtable: circle 12 square 16
 */
#include <stdio.h>
#include <string.h>

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

struct ops {
    const char *name;
    int (*fn)(int, int);
};

struct ops table[] = {{"add", add}, {"sub", sub}, {"mul", mul}};

struct shape_vtable {
    const char *(*name)(void);
    int (*area)(int);
};

static const char *circle_name(void) { return "circle"; }
static int circle_area(int r) { return 3 * r * r; }
static const char *square_name(void) { return "square"; }
static int square_area(int s) { return s * s; }

const struct shape_vtable circle = {circle_name, circle_area};
const struct shape_vtable square = {square_name, square_area};
const struct shape_vtable *shapes[] = {&circle, &square};

int main(void) {
    for (int i = 0; i < 3; i++)
        printf("%s %d\n", table[i].name, table[i].fn(3, 4));
    printf("dispatch:");
    const char *order[] = {"add", "sub", "mul"};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (strcmp(order[i], table[j].name) == 0)
                printf(" %s", table[j].name);
    printf("\n");
    printf("vtable:");
    for (int i = 0; i < 2; i++)
        printf(" %s %d", shapes[i]->name(), shapes[i]->area(2 + 2 * i));
    printf("\n");
    return 0;
}
