/* gimso-test
 * expect: run
 * stdout:
 * | vec 32 1 8 | 2 16
 * | big 64 7 | 9
 * | pair 32 5 3
 */
/* Globals whose type is more aligned than the 16-byte object header (a
 * 32-byte vector, a struct with an over-aligned member): their payload
 * starts right after the header, at the alignment they declare, with their
 * initial values (the object's layout once put a 32-aligned vector 16
 * bytes past where its capability pointed, so it read as zeros). */
#include <stdint.h>
#include <stdio.h>

typedef int v8si __attribute__((vector_size(32)));
typedef long v8di __attribute__((vector_size(64)));

v8si vec = {1, 2, 3, 4, 5, 6, 7, 8};
static const v8di big = {0, 1, 2, 3, 4, 5, 6, 7};
struct pair {
    char tag;
    _Alignas(32) int value[3];
};
struct pair pair = {5, {1, 2, 3}};

int main(void) {
    v8si twice = vec + vec;
    printf("vec %d %d %d | %d %d\n", (int)((uintptr_t)&vec % 32 + 32), vec[0], vec[7], twice[0], twice[7]);
    printf("big %d %ld | %ld\n", (int)((uintptr_t)&big % 64 + 64), big[7], big[7] + 2);
    printf("pair %d %d %d\n", (int)((uintptr_t)pair.value % 32 + 32), pair.tag, pair.value[2]);
    return 0;
}
