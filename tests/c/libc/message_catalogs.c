/* gimso-test
 * expect: error invalid nl_catd
 * line: 25
 * native: differs (natively catgets reads the forged descriptor as a catalog address)
 * stdout:
 * | missing -1 1 default
 * | bad 1 1 -1
 */
/* Message catalogs: a catalog that does not exist gives (nl_catd)-1, which
 * catgets and catclose accept as glibc does; a forged nl_catd is caught. */
#include <errno.h>
#include <nl_types.h>
#include <stdio.h>

int main(void) {
    nl_catd cat = catopen("/nonexistent/gimso-test.cat", 0);
    char def[] = "default";
    char *msg = catgets(cat, 1, 1, def);
    printf("missing %d %d %s\n", (int)(long)cat, msg == def, msg);
    errno = 0;
    int r = catclose(cat);
    printf("bad %d %d %d\n", r == -1, errno == EBADF, r);
    fflush(stdout);
    nl_catd forged = (nl_catd)0x1234;
    return catgets(forged, 1, 1, def) == def; /* BUG */
}
