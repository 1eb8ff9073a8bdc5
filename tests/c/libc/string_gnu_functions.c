/* gimso-test
 * expect: run
 * stdout:
 * | strtok_r: [alpha] [beta] [gamma] then (null)
 * | strsep: [a] [] [b] [c] then (null)
 * | memrchr: 7, strchrnul: 3 and end 5
 * | strcasestr: HayStack, memmem: 4, empty needle: 0
 * | strerror_r: No such file or directory / xsi 0 'No such file or directory' / small 34 'No s'
 * | strcoll: -1 0 1, strxfrm 5 'hello'
 * | rand_r: 476707713 1186278907 505671508
 * | strsignal: Interrupt
 */
/* POSIX/GNU string functions: tokenising with saved pointers, searches
 * returning pointers into their arguments, messages into checked buffers,
 * collation, and the reentrant generator. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>

int __xpg_strerror_r(int, char *, size_t);

int main(void) {
    char text[] = "  alpha beta,gamma  ";
    char *save = NULL;
    printf("strtok_r:");
    for (char *t = strtok_r(text, " ,", &save); t; t = strtok_r(NULL, " ,", &save))
        printf(" [%s]", t);
    printf(" then %s\n", strtok_r(NULL, " ,", &save) ? "more" : "(null)");

    char list[] = "a,,b,c";
    char *p = list;
    printf("strsep:");
    char *tok;
    while ((tok = strsep(&p, ",")) != NULL)
        printf(" [%s]", tok);
    printf(" then %s\n", p ? "more" : "(null)");

    const char *s = "abcabcaXc";
    printf("memrchr: %d, strchrnul: %d and end %d\n",
           (int)((const char *)memrchr(s, 'X', 9) - s),
           (int)(strchrnul("abcdef", 'd') - "abcdef"), (int)(strchrnul("hello", 'z') - "hello"));

    const char *hay = "a HayStack";
    printf("strcasestr: %s, memmem: %d, empty needle: %d\n", strcasestr(hay, "haystack"),
           (int)((const char *)memmem("xxxxneedle", 10, "needle", 6) - "xxxxneedle"),
           (int)((const char *)memmem(hay, 10, "", 0) - hay));

    char buf[64];
    char small[5];
    const char *gnu = strerror_r(ENOENT, buf, sizeof buf);
    int xsi = __xpg_strerror_r(ENOENT, buf, sizeof buf);
    int trunc = __xpg_strerror_r(ENOENT, small, sizeof small);
    printf("strerror_r: %s / xsi %d '%s' / small %d '%s'\n", gnu, xsi, buf, trunc, small);

    char x[16];
    size_t n = strxfrm(x, "hello", sizeof x);
    int a = strcoll("abc", "abd"), b = strcoll("abc", "abc"), c = strcoll("b", "a");
    printf("strcoll: %d %d %d, strxfrm %zu '%s'\n", a < 0 ? -1 : a, b, c > 0 ? 1 : c, n, x);

    unsigned seed = 1;
    int r1 = rand_r(&seed), r2 = rand_r(&seed), r3 = rand_r(&seed);
    printf("rand_r: %d %d %d\n", r1, r2, r3);
    printf("strsignal: %s\n", strsignal(SIGINT));
    return 0;
}
