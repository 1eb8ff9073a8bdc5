/* gimso-test
 * expect: run
 * exit: 134
 * stderr: iconv: the iconv_t was not returned by iconv_open, or was closed
 * native: differs (natively iconv on a closed descriptor uses freed memory: undefined behaviour)
 * stdout:
 * | closed 0
 */
/* iconv through a closed descriptor stops the program with a clear error. */
#include <iconv.h>
#include <stdio.h>

int main(void) {
    iconv_t cd = iconv_open("ISO-8859-1", "UTF-8");
    printf("closed %d\n", iconv_close(cd));
    char in[] = "a", out[4];
    char *ip = in, *op = out;
    size_t il = 1, ol = 4;
    return (int)iconv(cd, &ip, &il, &op, &ol);
}
