/* gimso-test
 * expect: run
 * stdout:
 * | strlen 11 strnlen 5
 * | cmp: 0 neg pos ncmp 0
 * | chr: world rchr: rld
 * | str: lo wo spn 3 cspn 4
 * | cpy: abc ncpy: ab|
 * | cat: foobar ncat: foobarba
 * | dup: hello ndup: hel
 * | mem: chr=d cmp=neg set=xxxx move=aabcd
 * | strerror: yes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *sign(int x) { return x < 0 ? "neg" : x > 0 ? "pos" : "0"; }

int main(void) {
    const char *hw = "hello world";
    printf("strlen %zu strnlen %zu\n", strlen(hw), strnlen(hw, 5));
    printf("cmp: %s %s %s ncmp %s\n", sign(strcmp("abc", "abc")), sign(strcmp("abc", "abd")),
           sign(strcmp("b", "abc")), sign(strncmp("abcx", "abcy", 3)));
    printf("chr: %s rchr: %s\n", strchr(hw, 'w'), strrchr(hw, 'o') + 1);
    printf("str: %.2s %.2s spn %zu cspn %zu\n", strstr(hw, "lo"), strstr(hw, "wo"),
           strspn("aaab", "a"), strcspn("abcd efg", " "));
    char buf[16];
    strcpy(buf, "abc");
    char nb[8];
    memset(nb, '|', sizeof nb);
    strncpy(nb, "abcdef", 2);
    nb[3] = 0;
    printf("cpy: %s ncpy: %s\n", buf, nb);
    char cat[32] = "foo";
    strcat(cat, "bar");
    printf("cat: %s ", cat);
    strncat(cat, "baz", 2);
    printf("ncat: %s\n", cat);
    char *d = strdup("hello");
    char *nd = strndup("hello", 3);
    printf("dup: %s ndup: %s\n", d, nd);
    char m[8] = "abcdefg";
    char *mc = memchr(m, 'd', 7);
    char s4[5];
    memset(s4, 'x', 4);
    s4[4] = 0;
    char mv[6] = "abcd";
    memmove(mv + 1, mv, 4);
    mv[5] = 0;
    printf("mem: chr=%c cmp=%s set=%s move=%s\n", *mc, sign(memcmp("abc", "abd", 3)), s4, mv);
    printf("strerror: %s\n", strlen(strerror(2)) > 0 ? "yes" : "no");
    free(d);
    free(nd);
    return 0;
}
