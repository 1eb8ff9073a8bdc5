/* Uses over-aligned globals of another translation unit through
 * declarations that do not repeat the alignment; `argv[1]` = "oob" reads one
 * byte past `shared_buf`. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern char shared_buf[];
extern struct {
    int *p;
    int n;
} shared_table;

int main(int argc, char **argv) {
    printf("aligned %d %d\n", (uintptr_t)shared_buf % 256 == 0,
           (uintptr_t)&shared_table % 64 == 0);
    printf("%s\n", shared_buf);
    *shared_table.p += shared_table.n;
    printf("counter %d\n", *shared_table.p);
    if (argc > 1 && strcmp(argv[1], "oob") == 0) {
        volatile int i = 40;
        printf("%d\n", shared_buf[i]);
    }
    return 0;
}
