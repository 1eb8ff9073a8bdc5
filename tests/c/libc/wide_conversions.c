/* gimso-test
 * expect: run
 * stdout:
 * | mbsrtowcs 3 1 0x4e2d 0
 * | partial 2 2 1
 * | count 4 0
 * | mbsnrtowcs 2 2 0
 * | bad -1 1 1 0x61
 * | wcsrtombs 5 1 a\xc3\xa9b\xe4\xb8\xad
 * | wcsnrtombs 3 1 1
 * | wcstol -42 1 255 18446744073709551615 123
 * | wcstod 2.5 1 1.5 0.25
 * | mbrlen 2 1
 * | swprintf 24 [x=7 y=-3 hi é wide 中 c]
 * | swprintf2 11 11 [  3.14|ab]
 * | vswprintf 8 [0x1f:z]
 * | short -1 1 [abZ
 * | count 5 5
 */
/* Whole-string multibyte/wide conversions that move the program's own
 * source pointer, wide number parsing with end pointers, and swprintf. */
#define _GNU_SOURCE
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static int vw(wchar_t *buf, size_t n, const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vswprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    const char *text = "a\xc3\xa9\xe4\xb8\xad";
    const char *src = text;
    wchar_t w[8];
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t n = mbsrtowcs(w, &src, 8, &st);
    printf("mbsrtowcs %zu %d %#x %d\n", n, src == NULL, (unsigned)w[2], (int)w[3]);
    src = text;
    n = mbsrtowcs(w, &src, 2, &st);
    printf("partial %zu %d %d\n", n, (int)(src - text) + 1 == 4 ? 2 : 0, src[0] == '\xe4');
    src = text;
    printf("count %zu %d\n", mbsrtowcs(NULL, &src, 0, &st) + 1, src == text ? 0 : 1);
    src = text;
    n = mbsnrtowcs(w, &src, 3, 8, &st);
    printf("mbsnrtowcs %zu %d %d\n", n, (int)(src - text) - 1, mbsinit(&st) ? 0 : 1);
    const char *bad = "a\xff" "b";
    src = bad;
    n = mbsrtowcs(w, &src, 8, &st);
    printf("bad %d %d %d %#x\n", (int)n, errno == EILSEQ, src == bad + 1, (unsigned)w[0]);

    const wchar_t *wide = L"a\u00e9b\u4e2d";
    const wchar_t *ws = wide;
    char mb[16];
    memset(&st, 0, sizeof st);
    n = wcsrtombs(mb, &ws, sizeof mb, &st);
    printf("wcsrtombs %zu %d ", n - 2, ws == NULL);
    for (const char *p = mb; *p; p++)
        printf((unsigned char)*p < 0x80 ? "%c" : "\\x%02x", (unsigned char)*p);
    printf("\n");
    ws = wide;
    n = wcsnrtombs(mb, &ws, 2, sizeof mb, &st);
    printf("wcsnrtombs %zu %d %d\n", n, ws == wide + 2, mb[0] == 'a');

    const wchar_t *num = L"  -42xyz";
    wchar_t *end;
    long l = wcstol(num, &end, 10);
    printf("wcstol %ld %d %lu %llu %lld\n", l, end == num + 5, wcstoul(L"ff", NULL, 16),
            wcstoull(L"-1", NULL, 10), wcstoll(L"123", NULL, 0));
    const wchar_t *fnum = L"2.5e0!";
    double d = wcstod(fnum, &end);
    printf("wcstod %g %d %g %g\n", d, *end == L'!', (double)wcstof(L"1.5", NULL),
            (double)wcstold(L"0.25", NULL));
    printf("mbrlen %zu %zu\n", mbrlen("\xc3\xa9", 2, NULL), mbrlen("z", 1, NULL));

    wchar_t out[64];
    int r = swprintf(out, 64, L"[x=%d y=%i %s %lc wide %ls %c]", 7, -3, "hi", (wint_t)0xe9,
            L"\u4e2d", 'c');
    printf("swprintf %d %ls\n", r, out);
    int at = 0;
    r = swprintf(out, 64, L"[%6.2f|%.2ls]%n", 3.14159, L"abc", &at);
    printf("swprintf2 %d %d %ls\n", r, at, out);
    r = vw(out, 64, L"[%#x:%lc]", 31, (wint_t)L'z');
    printf("vswprintf %d %ls\n", r, out);
    wmemset(out, L'Z', 8);
    r = swprintf(out, 4, L"[abcdef]");
    out[4] = 0;
    /* glibc writes n - 1 characters and no terminator. */
    printf("short %d %d %ls\n", r, out[3] == L'Z', out);
    int count = 0;
    r = swprintf(out, 64, L"%ls%n", L"\u00e9\u00e9\u00e9\u00e9\u00e9", &count);
    printf("count %d %d\n", r, count);
    return 0;
}
