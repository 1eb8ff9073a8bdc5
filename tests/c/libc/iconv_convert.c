/* gimso-test
 * expect: error out-of-bounds write
 * line: 55
 * stdout:
 * | open bad 1 EINVAL 1
 * | latin1 0 [68 e9 6c 6c 6f] in left 0 out left 3
 * | e2big -1 E2BIG 1 consumed 1 produced 1 then 0 left 3 [e9 6c 6c 6f]
 * | eilseq -1 EILSEQ 1 at 1
 * | utf16 0 bytes 10 [68 00 e9 00]
 * | closed 0
 */
/* iconv_open/iconv/iconv_close: conversions advance the program's own
 * pointers and counts; an output count larger than its buffer is caught. */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t conv(iconv_t cd, const char *in, size_t n, char *out, size_t room, char **in_at,
                   char **out_at, size_t *in_left, size_t *out_left) {
    *in_at = (char *)in;
    *out_at = out;
    *in_left = n;
    *out_left = room;
    return iconv(cd, in_at, in_left, out_at, out_left);
}

int main(void) {
    iconv_t bad = iconv_open("NO-SUCH-CHARSET", "UTF-8");
    printf("open bad %d EINVAL %d\n", bad == (iconv_t)-1, errno == EINVAL);
    iconv_t cd = iconv_open("ISO-8859-1", "UTF-8");
    unsigned char out[8];
    char *ia, *oa;
    size_t il, ol;
    size_t r = conv(cd, "h\xc3\xa9llo", 6, (char *)out, 8, &ia, &oa, &il, &ol);
    printf("latin1 %d [%02x %02x %02x %02x %02x] in left %zu out left %zu\n", (int)r, out[0], out[1], out[2],
           out[3], out[4], il, ol);
    static const char src[] = "h\xc3\xa9llo";
    r = conv(cd, src, 6, (char *)out, 1, &ia, &oa, &il, &ol);
    int e = errno;
    int consumed = (int)(ia - src), produced = (int)(oa - (char *)out);
    size_t more = 7;
    size_t r2 = iconv(cd, &ia, &il, &oa, &more);
    printf("e2big %d E2BIG %d consumed %d produced %d then %d left %zu [%02x %02x %02x %02x]\n", (int)r,
           e == E2BIG, consumed, produced, (int)r2, more, out[1], out[2], out[3], out[4]);
    r = conv(cd, "a\xff" "b", 3, (char *)out, 8, &ia, &oa, &il, &ol);
    printf("eilseq %d EILSEQ %d at %d\n", (int)r, errno == EILSEQ, (int)(3 - il));
    iconv_t u16 = iconv_open("UTF-16LE", "UTF-8");
    unsigned char w[16];
    r = conv(u16, "h\xc3\xa9llo", 6, (char *)w, 16, &ia, &oa, &il, &ol);
    printf("utf16 %d bytes %d [%02x %02x %02x %02x]\n", (int)r, (int)(16 - ol), w[0], w[1], w[2], w[3]);
    printf("closed %d\n", iconv_close(u16));
    char *small = malloc(4);
    return (int)conv(cd, "hello", 5, small, 16, &ia, &oa, &il, &ol);
}
