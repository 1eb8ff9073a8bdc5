/* gimso-test
 * expect: run
 * stdout:
 * | ids: 1 2 3
 * | memo fib(40) = 102334155
 * | cached name: cached-7
 * | same buffer: yes
 */
#include <stdio.h>
#include <string.h>

static int next_id(void) {
    static int id;
    return ++id;
}

static long fib(int n) {
    static long memo[64];
    if (n < 2)
        return n;
    if (memo[n])
        return memo[n];
    return memo[n] = fib(n - 1) + fib(n - 2);
}

static const char *name_for(int k) {
    static char buf[32];
    static const char *last;
    if (!last) {
        snprintf(buf, sizeof buf, "cached-%d", k);
        last = buf;
    }
    return last;
}

int main(void) {
    int a = next_id(), b = next_id(), c = next_id();
    printf("ids: %d %d %d\n", a, b, c);
    printf("memo fib(40) = %ld\n", fib(40));
    const char *n1 = name_for(7);
    const char *n2 = name_for(8);
    printf("cached name: %s\n", n2);
    printf("same buffer: %s\n", n1 == n2 ? "yes" : "no");
    return 0;
}
