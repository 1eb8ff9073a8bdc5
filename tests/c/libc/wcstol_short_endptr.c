/* gimso-test
 * expect: error out-of-bounds write
 * line: 17
 * stdout:
 * | value 12
 */
/* wcstol's end pointer goes through a checked pointer store: a 4-byte
 * slot cannot take it. */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void) {
    int slot[1];
    printf("value %ld\n", wcstol(L"12", NULL, 10));
    fflush(stdout);
    return (int)wcstol(L"34", (wchar_t **)slot, 10); /* BUG */
}
