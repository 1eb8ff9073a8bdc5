/* gimso-test
 * expect: error out-of-bounds write
 * line: 54
 * native: no-asan (ASan's regexec interceptor reads the REG_STARTEND string up to a NUL it does not have)
 * stdout:
 * | nsub 2 match 0 [2026-11] [2026] [11]
 * | icase 0 nosub 0 nomatch 1
 * | bad 1 message [Unmatched ( or \(] needed 1
 * | startend 0 at 1..4
 * | freed twice ok
 */
/* <regex.h>: regcomp/regexec/regerror/regfree, with the compiled
 * expression out of the program's reach; a match array shorter than
 * nmatch is caught. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *s, regmatch_t m) {
    printf(" [%.*s]", (int)(m.rm_eo - m.rm_so), s + m.rm_so);
}

int main(void) {
    regex_t re;
    regcomp(&re, "([0-9]{4})-([0-9]{2})", REG_EXTENDED);
    regmatch_t m[3];
    const char *text = "date: 2026-11-26";
    int r = regexec(&re, text, 3, m, 0);
    printf("nsub %zu match %d", re.re_nsub, r);
    for (int i = 0; i < 3; i++)
        show(text, m[i]);
    printf("\n");
    regex_t ic, ns;
    regcomp(&ic, "hello", REG_ICASE | REG_NOSUB);
    regcomp(&ns, "^a+$", REG_EXTENDED | REG_NOSUB);
    printf("icase %d nosub %d nomatch %d\n", regexec(&ic, "say HeLLo", 0, NULL, 0),
           regexec(&ns, "aaaa", 0, NULL, 0), regexec(&ns, "aaab", 0, NULL, 0) == REG_NOMATCH);
    regex_t bad;
    int e = regcomp(&bad, "(unclosed", REG_EXTENDED);
    char msg[64];
    size_t needed = regerror(e, &bad, msg, sizeof msg);
    printf("bad %d message [%s] needed %d\n", e != 0, msg, needed == strlen(msg) + 1);
    regex_t w;
    regcomp(&w, "b+", REG_EXTENDED);
    char raw[6] = {'a', 'b', 'b', 'b', 'c', 'd'}; /* no NUL */
    regmatch_t se = {1, 5};
    r = regexec(&w, raw, 1, &se, REG_STARTEND);
    printf("startend %d at %d..%d\n", r, (int)se.rm_so, (int)se.rm_eo);
    regfree(&w);
    regfree(&w);
    printf("freed twice ok\n");
    regmatch_t *few = malloc(2 * sizeof *few);
    return regexec(&re, text, 3, few, 0);
}
