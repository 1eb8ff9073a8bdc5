/* gimso-test
 * expect: error out-of-bounds read
 * line: 12
 * stdout:
 * | mon tue wed thu fri sat sun
 */
#include <stdio.h>

static const char *const days[7] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

__attribute__((noinline)) const char *day(int i) {
    return days[i]; /* BUG */
}

int main(void) {
    for (int i = 0; i < 7; i++)
        printf(i ? " %s" : "%s", day(i));
    printf("\n");
    fflush(stdout);
    printf("%s\n", day(7));
    return 0;
}
