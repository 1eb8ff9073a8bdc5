/* gimso-test
 * expect: error out-of-bounds read
 * line: 65
 * stdout:
 * | len 5 nlen 3 cmp -1 0 1 ncmp 0
 * | cpy [héllo] cat [héllo wörld] chr 1 rchr 9 none 1 dup [héllo]
 * | wmem 0 1 set [xxx] chr 2
 * | mbrtowc 2 e9 mbrlen 1 incomplete 1 wcrtomb 3 [e4 b8 ad] init 1
 * | mbstowcs 5 wcstombs 6 [héllo] short 3 [hé]
 * | mbtowc 2 mblen 1 wctomb 2 btowc 41 wctob -1
 * | width 1 2 0 swidth 4
 */
/* <wchar.h>: wide strings and memory, UTF-8 conversions, widths; a wide
 * string without its terminator inside its object is caught. */
#define _XOPEN_SOURCE 700
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    const wchar_t *h = L"héllo";
    printf("len %zu nlen %zu cmp %d %d %d ncmp %d\n", wcslen(h), wcsnlen(h, 3), wcscmp(L"a", L"b") < 0 ? -1 : 1,
           wcscmp(h, L"héllo"), wcscmp(L"b", L"a") > 0, wcsncmp(L"abcd", L"abce", 3));
    wchar_t buf[32];
    wcscpy(buf, h);
    printf("cpy [%ls]", buf);
    wcscat(buf, L" wörld");
    wchar_t *d = wcsdup(h);
    printf(" cat [%ls] chr %d rchr %d none %d dup [%ls]\n", buf, (int)(wcschr(buf, L'é') - buf),
           (int)(wcsrchr(buf, L'l') - buf), wcschr(buf, L'z') == NULL, d);
    wchar_t m[4];
    wmemcpy(m, L"abc", 4);
    wchar_t s3[4] = {0};
    wmemset(s3, L'x', 3);
    printf("wmem %d %d set [%ls] chr %d\n", wmemcmp(m, L"abc", 3), wmemcmp(m, L"abd", 3) < 0, s3,
           (int)(wmemchr(m, L'c', 3) - m));
    mbstate_t st;
    memset(&st, 0, sizeof st);
    wchar_t wc;
    size_t a = mbrtowc(&wc, "\xc3\xa9x", 3, &st);
    size_t b = mbrlen("x", 1, &st);
    size_t inc = mbrtowc(&wc, "\xe4\xb8", 2, &st);
    memset(&st, 0, sizeof st);
    char out[8] = {0};
    size_t c = wcrtomb(out, 0x4e2d, &st);
    printf("mbrtowc %zu %x mbrlen %zu incomplete %d wcrtomb %zu [%02x %02x %02x] init %d\n", a, (unsigned)L'é', b,
           inc == (size_t)-2, c, (unsigned char)out[0], (unsigned char)out[1], (unsigned char)out[2], mbsinit(&st));
    wchar_t w[8];
    char nb[16];
    char sh[3];
    size_t e = mbstowcs(w, "héllo", 8);
    size_t f = wcstombs(nb, w, sizeof nb);
    size_t g = wcstombs(sh, w, 3);
    printf("mbstowcs %zu wcstombs %zu [%s] short %zu [%.*s]\n", e, f, nb, g, (int)g, sh);
    char mb[8];
    printf("mbtowc %d mblen %d wctomb %d btowc %x wctob %d\n", mbtowc(&wc, "\xc3\xa9", 2), mblen("a", 1),
           wctomb(mb, L'é'), (unsigned)btowc('A'), wctob(0x4e2d));
    printf("width %d %d %d swidth %d\n", wcwidth(L'a'), wcwidth(0x4e2d), wcwidth(0x301), wcswidth(L"a中b", 8));
    wchar_t *raw = malloc(2 * sizeof *raw);
    raw[0] = L'a';
    raw[1] = L'b';
    return (int)wcslen(raw);
}
