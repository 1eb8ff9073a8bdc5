/* gimso-test
 * expect: error out-of-bounds write
 * line: 36
 * stdout:
 * | getresuid 0 same 1 getresgid 0 same 1
 * | getgroups count 1 fill 1 same 1
 * | setuid to self 0 seteuid 0 setgid 0 setegid 0 setgroups 1
 */
/* Process credentials: getresuid/getresgid agree with getuid/geteuid,
 * getgroups counts and fills, setting each id to its current value
 * succeeds, setgroups with the current list answers as natively (0 as
 * root, EPERM otherwise: 1 either way). A list shorter than the size
 * given to getgroups is caught before the call. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    uid_t r, e, s;
    gid_t gr, ge, gs;
    int a = getresuid(&r, &e, &s), b = getresgid(&gr, &ge, &gs);
    printf("getresuid %d same %d getresgid %d same %d\n", a, r == getuid() && e == geteuid(), b,
           gr == getgid() && ge == getegid());
    int n = getgroups(0, NULL);
    gid_t *list = calloc(n + 1, sizeof(gid_t));
    int m = getgroups(n + 1, list);
    printf("getgroups count %d fill %d same %d\n", n >= 0, m == n, n == 0 || list[0] == list[0]);
    int sg = setgroups(m, list);
    printf("setuid to self %d seteuid %d setgid %d setegid %d setgroups %d\n", setuid(getuid()),
           seteuid(geteuid()), setgid(getgid()), setegid(getegid()), sg == 0 || errno == EPERM);
    fflush(stdout);
    gid_t one[1];
    return getgroups(4, one) < 0;
}
