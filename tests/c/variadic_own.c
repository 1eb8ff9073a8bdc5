/* gimso-test
 * expect: run
 * stdout:
 * | sum 15
 * | mixed: i=3 d=2.50 s=str l=1099511627776 p=77
 * | twice: 10 20 30 / 10 20 30
 * | fmt: [x=5] [name=gimso]
 * | empty 0
 */
#include <stdarg.h>
#include <stdio.h>

static int sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static void mixed(const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    printf("mixed:");
    for (const char *k = kinds; *k; k++) {
        switch (*k) {
        case 'i': printf(" i=%d", va_arg(ap, int)); break;
        case 'd': printf(" d=%.2f", va_arg(ap, double)); break;
        case 's': printf(" s=%s", va_arg(ap, const char *)); break;
        case 'l': printf(" l=%lld", va_arg(ap, long long)); break;
        case 'p': printf(" p=%d", *va_arg(ap, int *)); break;
        }
    }
    printf("\n");
    va_end(ap);
}

static void twice(int n, ...) {
    va_list ap, copy;
    va_start(ap, n);
    va_copy(copy, ap);
    printf("twice:");
    for (int i = 0; i < n; i++)
        printf(" %d", va_arg(ap, int));
    printf(" /");
    for (int i = 0; i < n; i++)
        printf(" %d", va_arg(copy, int));
    printf("\n");
    va_end(copy);
    va_end(ap);
}

static int fmt(char *buf, size_t n, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int r = vsnprintf(buf, n, f, ap);
    va_end(ap);
    return r;
}

static void lognext(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

int main(void) {
    printf("sum %d\n", sum(5, 1, 2, 3, 4, 5));
    int seventy_seven = 77;
    mixed("idslp", 3, 2.5, "str", 1LL << 40, &seventy_seven);
    twice(3, 10, 20, 30);
    char a[32], b[32];
    fmt(a, sizeof a, "x=%d", 5);
    fmt(b, sizeof b, "name=%s", "gimso");
    printf("fmt: [%s] [%s]\n", a, b);
    lognext("empty %d\n", sum(0));
    return 0;
}
