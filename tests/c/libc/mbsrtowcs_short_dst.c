/* gimso-test
 * expect: error out-of-bounds write
 * line: 16
 */
/* mbsrtowcs writes as many wide characters as it converts: a destination
 * shorter than the len it claims is caught. */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

int main(void) {
    wchar_t dst[2];
    const char *src = "abcdef";
    mbstate_t st;
    memset(&st, 0, sizeof st);
    return (int)mbsrtowcs(dst, &src, 16, &st); /* BUG */
}
