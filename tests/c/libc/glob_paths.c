/* gimso-test
 * expect: error out-of-bounds write
 * line: 65
 * stdout:
 * | glob 0 count 3 [a.txt b.txt c.txt] end 1
 * | append 0 count 4 last [d.log]
 * | offs 0 lead 1 1 first [a.txt]
 * | nomatch 1 nocheck 0 [zz*]
 * | errfunc calls 1 aborted 1
 * | freed 4 null 1
 */
/* glob/globfree over a scratch directory: sorted results as checked
 * objects, GLOB_APPEND, GLOB_DOOFFS, GLOB_NOCHECK, an errfunc; a glob_t
 * too small for its fields is caught. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int errs;
static int on_error(const char *path, int err) {
    (void)path;
    (void)err;
    errs++;
    return 1; /* abort */
}

int main(void) {
    char dir[] = "/tmp/gimso-glob-XXXXXX";
    mkdtemp(dir);
    chdir(dir);
    const char *names[] = {"c.txt", "a.txt", "b.txt", "d.log"};
    for (int i = 0; i < 4; i++)
        fclose(fopen(names[i], "w"));
    glob_t g;
    int r = glob("*.txt", 0, NULL, &g);
    printf("glob %d count %zu [%s %s %s] end %d\n", r, g.gl_pathc, g.gl_pathv[0], g.gl_pathv[1], g.gl_pathv[2],
           g.gl_pathv[3] == NULL);
    r = glob("*.log", GLOB_APPEND, NULL, &g);
    printf("append %d count %zu last [%s]\n", r, g.gl_pathc, g.gl_pathv[3]);
    globfree(&g);
    glob_t o;
    o.gl_offs = 2;
    r = glob("a.*", GLOB_DOOFFS, NULL, &o);
    printf("offs %d lead %d %d first [%s]\n", r, o.gl_pathv[0] == NULL, o.gl_pathv[1] == NULL, o.gl_pathv[2]);
    globfree(&o);
    glob_t n;
    int nm = glob("zz*", 0, NULL, &n);
    r = glob("zz*", GLOB_NOCHECK, NULL, &n);
    printf("nomatch %d nocheck %d [%s]\n", nm == GLOB_NOMATCH, r, n.gl_pathv[0]);
    globfree(&n);
    symlink("loop", "loop"); /* opening it as a directory fails (ELOOP), even for root */
    glob_t e;
    r = glob("loop/*", 0, on_error, &e);
    printf("errfunc calls %d aborted %d\n", errs, r == GLOB_ABORTED);
    printf("freed %zu null %d\n", g.gl_pathc, g.gl_pathv == NULL);
    for (int i = 0; i < 4; i++)
        unlink(names[i]);
    unlink("loop");
    chdir("/");
    rmdir(dir);
    glob_t *small = malloc(16);
    return glob("*.txt", 0, NULL, small);
}
