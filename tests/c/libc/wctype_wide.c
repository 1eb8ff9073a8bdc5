/* gimso-test
 * expect: error out-of-bounds read
 * line: 31
 * native: differs (natively iswctype reads the forged descriptor as a table address and crashes)
 * stdout:
 * | space 1 0 alpha 1 1 0 digit 1 0
 * | upper A lower z same 0x4e2d
 * | classes 1 1 0 0 forged 0
 * | unknown 0
 */
/* <wctype.h>: classification and case mapping of wide characters, and
 * wctype/iswctype with descriptors that cannot be forged; a class name
 * without its NUL is caught. */
#include <locale.h>
#include <stdio.h>
#include <wctype.h>

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    printf("space %d %d alpha %d %d %d digit %d %d\n", iswspace(L' ') != 0, iswspace(L'x') != 0,
           iswalpha(L'q') != 0, iswalpha(0x00e9) != 0, iswalpha(L'7') != 0, iswdigit(L'7') != 0,
           iswdigit(0x4e2d) != 0);
    printf("upper %lc lower %lc same %#x\n", (wint_t)towupper(L'a'), (wint_t)towlower(L'Z'),
           (unsigned)towupper(0x4e2d));
    wctype_t alpha = wctype("alpha"), digit = wctype("digit");
    printf("classes %d %d %d %d forged %d\n", iswctype(L'a', alpha) != 0,
           iswctype(L'5', digit) != 0, iswctype(L'a', digit) != 0, iswctype(L'5', alpha) != 0,
           iswctype(L'a', (wctype_t)0x7fff0000) != 0);
    printf("unknown %d\n", (int)wctype("nonsense"));
    char name[8] = {'a', 'l', 'p', 'h', 'a', 'b', 'c', 'd'};
    return (int)wctype(name);
}
