/* gimso-test
 * expect: error out-of-bounds write
 * line: 40
 * stdout:
 * | getpwuid root uid 0 dir /root shell 1
 * | getpwnam same 1 missing 1
 * | getpwuid_r 0 result 1 in buf 1 name root
 * | small ERANGE 1 result null 1
 * | getgrgid root gid 0 members 1 getgrnam 1
 */
/* The user and group databases (root, which every system has); the _r
 * form into the program's buffer; a buffer smaller than the length it
 * claims is caught. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    struct passwd *p = getpwuid(0);
    printf("getpwuid %s uid %d dir %s shell %d\n", p->pw_name, (int)p->pw_uid, p->pw_dir, p->pw_shell[0] == '/');
    struct passwd *q = getpwnam("root");
    printf("getpwnam same %d missing %d\n", q->pw_uid == 0 && strcmp(q->pw_dir, p->pw_dir) == 0,
           getpwnam("no-such-user-gimso") == NULL);
    struct passwd pw, *res = NULL;
    char buf[512];
    int r = getpwuid_r(0, &pw, buf, sizeof buf, &res);
    printf("getpwuid_r %d result %d in buf %d name %s\n", r, res == &pw,
           pw.pw_name >= buf && pw.pw_name < buf + sizeof buf, pw.pw_name);
    char tiny[4];
    r = getpwuid_r(0, &pw, tiny, sizeof tiny, &res);
    printf("small ERANGE %d result null %d\n", r == ERANGE, res == NULL);
    struct group *g = getgrgid(0);
    printf("getgrgid %s gid %d members %d getgrnam %d\n", g->gr_name, (int)g->gr_gid, g->gr_mem != NULL,
           getgrnam("root") != NULL);
    char *small = malloc(16);
    return getpwuid_r(0, &pw, small, 512, &res);
}
