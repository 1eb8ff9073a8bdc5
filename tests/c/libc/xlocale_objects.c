/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=20
 * stdout:
 * | names C C.UTF-8
 * | ctype 1 0 1 1 0 1
 * | tables 1 1 65 97 1
 * | wide 1 0 1 1 0x4e2d 0xc9 0xc9
 * | case A z -1
 * | coll 1 1 1 3
 * | wcoll 1 3
 * | strtod 2.5 4 1.5 -42 255 1
 * | strtol 123 18446744073709551615 -9 42
 * | strftime Thu Jan  1 1970
 * | use 1 1 1 1 1
 * | dup 1 1
 * | base 1
 * | mbmax 1 6
 * | refused 1 1
 */
/* POSIX 2008 locales: newlocale objects readable as glibc's struct (the
 * <ctype.h> macros read __ctype_b and the case tables), the _l functions
 * on "C" and "C.UTF-8", uselocale round trips, duplocale and newlocale
 * with a base. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

int main(void) {
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t u = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
    if (!c || !u)
        return 1;
    printf("names %s %s\n", c->__names[LC_CTYPE], u->__names[LC_NUMERIC]);
    /* The macros read the tables; the parenthesised names call functions. */
    printf("ctype %d %d %d %d %d %d\n", isalpha_l('a', c) != 0, isdigit_l('a', c) != 0,
            (isspace_l)(' ', u) != 0, (isxdigit_l)('F', c) != 0, (isupper_l)('f', c) != 0,
            (ispunct_l)('!', u) != 0);
    printf("tables %d %d %d %d %d\n", c->__ctype_b[-1] == 0, c->__ctype_b[255] == 0,
            c->__ctype_toupper['a'], c->__ctype_tolower['A'], u->__ctype_toupper[-1] == -1);
    printf("wide %d %d %d %d %#x %#x %#x\n", iswalpha_l(0xe9, u) != 0, iswalpha_l(0xe9, c) != 0,
            iswdigit_l(L'7', u) != 0, iswspace_l(L' ', c) != 0, (unsigned)towupper_l(0x4e2d, u),
            (unsigned)towlower_l(0xc9, c), (unsigned)towupper_l(0xe9, u));
    printf("case %c %c %d\n", (toupper_l)('a', c), (tolower_l)('Z', u), (toupper_l)(EOF, c));
    char key[32];
    size_t n = strxfrm_l(key, "abc", sizeof key, c);
    printf("coll %d %d %d %zu\n", strcoll_l("a", "b", c) < 0, strcoll_l("b", "a", u) > 0,
            strcmp(key, "abc") == 0, n);
    wchar_t wkey[8];
    printf("wcoll %d %zu\n", wcscoll_l(L"x", L"y", u) < 0, wcsxfrm_l(wkey, L"xyz", 8, c));
    char *end;
    const char *text = "2.5rest";
    double d = strtod_l(text, &end, c);
    float f = strtof_l("1.5", NULL, u);
    printf("strtod %g %d %g %g %g %d\n", d, (int)(end - text) + 1, (double)f,
            strtod_l("  -42", NULL, c), (double)strtoul_l("ff", NULL, 16, c), *end == 'r');
    const char *num = "-9x";
    long l = strtol_l(num, &end, 10, c);
    printf("strtol %lld %llu %ld %d\n", strtoll_l("123", NULL, 10, u), strtoull_l("-1", NULL, 10, c),
            l, end == num + 2 ? 42 : 0);
    struct tm tm;
    time_t zero = 0;
    gmtime_r(&zero, &tm);
    char day[32];
    strftime_l(day, sizeof day, "%a %b %e %Y", &tm, c);
    printf("strftime %s\n", day);
    locale_t before = uselocale(u);
    locale_t now = uselocale((locale_t)0);
    locale_t back = uselocale(before);
    printf("use %d %d %d %d %d\n", before == LC_GLOBAL_LOCALE, now == u, back == u,
            uselocale((locale_t)0) == LC_GLOBAL_LOCALE, MB_CUR_MAX == 1);
    locale_t d1 = duplocale(u), d2 = duplocale(LC_GLOBAL_LOCALE);
    printf("dup %d %d\n", d1 != u && iswalpha_l(0xe9, d1) != 0, d2 != NULL);
    locale_t mixed = newlocale(LC_CTYPE_MASK, "C.UTF-8", d2);
    printf("base %d\n", mixed != NULL && iswalpha_l(0xe9, mixed) != 0);
    uselocale(u);
    size_t inside = MB_CUR_MAX;
    uselocale(LC_GLOBAL_LOCALE);
    printf("mbmax %zu %zu\n", MB_CUR_MAX, inside);
    locale_t none = newlocale(LC_ALL_MASK, "no_SUCH.locale", (locale_t)0);
    printf("refused %d %d\n", none == NULL, errno == ENOENT);
    freelocale(mixed);
    freelocale(d1);
    freelocale(c);
    freelocale(u);
    return 0;
}
