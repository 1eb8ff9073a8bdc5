/* gimso-test
 * expect: error use after free
 * line: 14
 * stdout:
 * | entry ok 1
 */
/* A readdir() result used after closedir(). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int first_char(const struct dirent *e) {
    return e->d_name[0]; /* BUG */
}

int main(void) {
    DIR *d = opendir("/");
    struct dirent *e = readdir(d);
    printf("entry ok %d\n", e != NULL && first_char(e) != 0);
    fflush(stdout);
    closedir(d);
    printf("stale %c\n", first_char(e));
    return 0;
}
