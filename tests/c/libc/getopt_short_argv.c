/* gimso-test
 * expect: error out-of-bounds read
 * line: 18
 * stdout:
 * | -a
 * | -b
 */
/* argc claims more arguments than the array holds: getopt reads the
 * pointer past its end, a checked load that fails. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char *args[] = {"prog", "-a", "-b"};
    int argc = 5;
    int c;
    opterr = 0;
    while ((c = getopt(argc, args, "ab")) != -1) /* BUG */
        printf("-%c\n", c);
    return 0;
}
