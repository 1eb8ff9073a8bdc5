/* gimso-test
 * expect: error out-of-bounds write
 * line: 15
 * stdout:
 * | fits 5 hello
 */
/* swprintf checks the wide buffer for the characters it writes. */
#include <stdio.h>
#include <wchar.h>

int main(void) {
    wchar_t buf[6];
    printf("fits %d %ls\n", swprintf(buf, 6, L"%ls", L"hello"), buf);
    fflush(stdout);
    return swprintf(buf, 16, L"%s-%d", "hello", 42); /* BUG */
}
