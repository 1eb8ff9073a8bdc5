/* gimso-test
 * expect: error out-of-bounds write
 * line: 42
 * stdout:
 * | rawmemchr 3 stpncpy 2 [ab] end 8 [abcdefgh]
 * | index 2 rindex 5 none 1
 * | bzero 0 0 0 explicit 0 bcopy [hello] overlap [hhello]
 * | verscmp -1 1 0 -1 1
 */
/* rawmemchr, stpncpy, index/rindex, bzero/explicit_bzero, bcopy and
 * strverscmp; bzero past the end of its buffer is caught. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
    char s[] = "abc:def";
    char *colon = rawmemchr(s, ':');
    char d[16] = "zzzzzzzzzzzzzzz";
    char *e = stpncpy(d, "ab", 8);
    char f[9] = {0};
    char *g = stpncpy(f, "abcdefghij", 8);
    printf("rawmemchr %d stpncpy %d [%s] end %d [%s]\n", (int)(colon - s), (int)(e - d), d,
           (int)(g - f), f);
    const char *t = "xyabcab";
    printf("index %d rindex %d none %d\n", (int)(index(t, 'a') - t), (int)(rindex(t, 'a') - t),
           index("abc", 'q') == NULL);
    int v[3] = {1, 2, 3};
    bzero(v, sizeof v);
    char secret[8] = "hunter2";
    explicit_bzero(secret, sizeof secret);
    char h[8] = "hello";
    char k[8];
    bcopy(h, k, 6);
    bcopy(h, h + 1, 6);
    printf("bzero %d %d %d explicit %d bcopy [%s] overlap [%s]\n", v[0], v[1], v[2], secret[0], k, h);
    printf("verscmp %d %d %d %d %d\n", strverscmp("a1", "a2") < 0 ? -1 : 1, strverscmp("a10", "a9") > 0,
           strverscmp("v1.0", "v1.0"), strverscmp("000", "00") < 0 ? -1 : 1, strverscmp("1.10", "1.9") > 0);
    char *small = malloc(8);
    bzero(small, 16);
    return 0;
}
