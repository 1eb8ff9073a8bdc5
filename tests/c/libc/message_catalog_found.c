/* gimso-test
 * expect: run
 * stdout:
 * | hello 1 world
 * | second Second message
 * | missing 1
 * | closed 0
 */
/* A catalog built with gencat: messages come back as read-only copies,
 * missing ones as the program's own default string. */
#include <nl_types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    char dir[] = "/tmp/gimso-catXXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char msg[128], cat[128], cmd[300];
    snprintf(msg, sizeof msg, "%s/t.msg", dir);
    snprintf(cat, sizeof cat, "%s/t.cat", dir);
    FILE *f = fopen(msg, "w");
    fputs("$set 1\n1 world\n2 Second message\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "gencat %s %s", cat, msg);
    if (system(cmd) != 0)
        return 2;
    nl_catd cd = catopen(cat, 0);
    if (cd == (nl_catd)-1)
        return 3;
    char def[] = "default";
    char *m = catgets(cd, 1, 1, def);
    printf("hello %d %s\n", m != def, m);
    printf("second %s\n", catgets(cd, 1, 2, def));
    printf("missing %d\n", catgets(cd, 1, 9, def) == def);
    printf("closed %d\n", catclose(cd));
    unlink(msg);
    unlink(cat);
    rmdir(dir);
    return 0;
}
