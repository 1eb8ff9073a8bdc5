/* gimso-test
 * expect: run
 * stdout:
 * | joined: alpha-beta-gamma
 * | loop allocas total 120
 */
#include <stdio.h>
#include <string.h>

static void join(const char **parts, int n) {
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(parts[i]) + 1;
    char *buf = __builtin_alloca(len);
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(buf, "-");
        strcat(buf, parts[i]);
    }
    printf("joined: %s\n", buf);
}

__attribute__((noinline)) int sum_scratch(int k) {
    int *scratch = __builtin_alloca(k * sizeof(int));
    for (int i = 0; i < k; i++)
        scratch[i] = i + 1;
    int s = 0;
    for (int i = 0; i < k; i++)
        s += scratch[i];
    return s;
}

int main(void) {
    const char *parts[] = {"alpha", "beta", "gamma"};
    join(parts, 3);
    int total = 0;
    for (int k = 1; k <= 8; k++)
        total += sum_scratch(k);
    printf("loop allocas total %d\n", total);
    return 0;
}
