/* gimso-test
 * expect: run
 * stdout:
 * | [   42] [42   ] [00042] [+42] [2a] [2A] [52] [0x2a]
 * | [3.14] [  3.142] [3.141593e+00] [0.5] [1e+10]
 * | [hi] [   hi] [hi   ] [h] [%]
 * | [-9223372036854775808] [18446744073709551615] [c] [65535]
 * | snprintf 11 'hello w'
 * | sprintf 'x=1,y=2'
 * | fputs fputc!
 * | putchar
 */
#include <limits.h>
#include <stdio.h>

int main(void) {
    printf("[%5d] [%-5d] [%05d] [%+d] [%x] [%X] [%o] [%#x]\n", 42, 42, 42, 42, 42, 42, 42, 42);
    printf("[%.2f] [%7.3f] [%e] [%g] [%g]\n", 3.14159, 3.14159, 3.14159265, 0.5, 1e10);
    printf("[%s] [%5s] [%-5s] [%.1s] [%%]\n", "hi", "hi", "hi", "hi");
    printf("[%lld] [%llu] [%c] [%hu]\n", LLONG_MIN, ULLONG_MAX, 'c', (unsigned short)65535);
    char small[8];
    int n = snprintf(small, sizeof small, "hello world");
    printf("snprintf %d '%s'\n", n, small);
    char buf[32];
    sprintf(buf, "x=%d,y=%d", 1, 2);
    printf("sprintf '%s'\n", buf);
    fputs("fputs ", stdout);
    fputs("fputc", stdout);
    fputc('!', stdout);
    fputc('\n', stdout);
    fprintf(stdout, "%s", "putchar");
    putchar('\n');
    fflush(stdout);
    fprintf(stderr, "stderr is not checked\n");
    return 0;
}
