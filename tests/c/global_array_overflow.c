/* gimso-test
 * expect: error out-of-bounds write
 * line: 11
 */
#include <stdio.h>

int histogram[10];
int after_histogram[10];

__attribute__((noinline)) void count(int bucket) {
    histogram[bucket] = bucket; /* BUG */
}

int main(void) {
    int data[] = {1, 5, 9, 10};
    for (int i = 0; i < 4; i++)
        count(data[i]);
    printf("%d %d\n", histogram[1], after_histogram[0]);
    return 0;
}
