/* gimso-test
 * expect: run
 * stdout:
 * | copied: alice 30 -> bob 25
 * | array copy: 1 2 3 4
 * | memmove overlap: c d e f e f
 * | realloc kept: x y z
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct person {
    const char *name;
    int age;
    struct person *friend;
};

__attribute__((noinline)) void copy_people(struct person *dst, const struct person *src, size_t n) {
    memcpy(dst, src, n * sizeof *src);
}

int main(void) {
    struct person src[2] = {{"alice", 30, NULL}, {"bob", 25, NULL}};
    src[0].friend = &src[1];
    struct person *dst = malloc(2 * sizeof *dst);
    copy_people(dst, src, 2);
    printf("copied: %s %d -> %s %d\n", dst[0].name, dst[0].age, dst[0].friend->name,
           dst[0].friend->age);
    int *vals[4];
    int storage[4] = {1, 2, 3, 4};
    for (int i = 0; i < 4; i++)
        vals[i] = &storage[i];
    int **copy = malloc(sizeof vals);
    memcpy(copy, vals, sizeof vals);
    printf("array copy: %d %d %d %d\n", *copy[0], *copy[1], *copy[2], *copy[3]);
    const char *letters[6] = {"a", "b", "c", "d", "e", "f"};
    memmove(letters, letters + 2, 4 * sizeof(char *));
    printf("memmove overlap:");
    for (int i = 0; i < 6; i++)
        printf(" %s", letters[i]);
    printf("\n");
    const char **list = malloc(3 * sizeof(char *));
    list[0] = "x";
    list[1] = "y";
    list[2] = "z";
    list = realloc(list, 100 * sizeof(char *));
    printf("realloc kept: %s %s %s\n", list[0], list[1], list[2]);
    free(list);
    free(copy);
    free(dst);
    return 0;
}
