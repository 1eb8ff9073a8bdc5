/* gimso-test
 * expect: error out-of-bounds write
 * line: 13
 * stdout:
 * | full struct: 0
 */
/* stat() into an object smaller than struct stat (144 bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

__attribute__((noinline)) int info(const char *path, struct stat *st) {
    return stat(path, st); /* BUG */
}

int main(void) {
    struct stat *st = malloc(sizeof *st);
    printf("full struct: %d\n", info("/", st));
    fflush(stdout);
    struct stat *small = malloc(64);
    printf("small struct: %d\n", info("/", small));
    return 0;
}
