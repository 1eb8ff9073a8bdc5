/* gimso-test
 * expect: run
 * stdout:
 * | [0] [-1] [2147483647] [-2147483648] [4294967295]
 * | [9223372036854775807] [-9223372036854775808] [18446744073709551615]
 * | [42] [-42] [123456789012] [7]
 * | [4464] [-12] [255] [hello] [(null)] [wide]
 * | [  -5] [-5  ] [+5] [005] [   ab] [a] [0x1f]
 * | 6 [1234]
 * | k|%|3000000000|(null)|-7
 */
/* The commonest conversions (%d, %i, %u of int or wider, a narrow %s, with
 * no flags, width or precision) are formatted without glibc; everything
 * else still goes through it. Both give what the C library gives. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

int main(void) {
    char buf[64];
    printf("[%d] [%i] [%d] [%d] [%u]\n", 0, -1, INT_MAX, INT_MIN, UINT_MAX);
    printf("[%lld] [%lld] [%llu]\n", LLONG_MAX, LLONG_MIN, ULLONG_MAX);
    printf("[%ld] [%jd] [%zu] [%td]\n", 42L, (intmax_t)-42, (size_t)123456789012ULL,
           (ptrdiff_t)7);
    /* h and hh truncate; %ls is wide; a null %s is glibc's "(null)". */
    const char *none = NULL;
    printf("[%hd] [%hhd] [%hhu] [%s] [%s] [%ls]\n", 70000, 500 - 256 - 256, 255, "hello",
           none, L"wide");
    printf("[%4d] [%-4d] [%+d] [%03d] [%5.2s] [%.1s] [%#x]\n", -5, -5, 5, 5, "abc", "abc",
           31);
    int n = snprintf(buf, sizeof buf, "%s%d", "x=", 1234);
    printf("%d [%s]\n", n, buf + 2);
    /* A format of nothing but those conversions, text and %%. */
    printf("%s|%%|%u|%s|%lld\n", "k", 3000000000u, none, -7LL);
    return 0;
}
