/* gimso-test
 * expect: error out-of-bounds write
 * line: 38
 * native: no-asan (natively tcgetattr fails with ENOTTY before writing)
 * stdout:
 * | not a tty -1 ENOTTY 1 set -1
 * | speeds 0 0 38400 38400 9600
 * | raw icanon 0 echo 0 opost 0 cs8 1 vmin 1
 */
/* <termios.h> on a private struct and a non-terminal (no tty needed):
 * speeds, cfmakeraw, the ENOTTY failures; tcgetattr into a buffer smaller
 * than a struct termios is caught before the call. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

int main(void) {
    int fd[2];
    pipe(fd);
    struct termios t;
    memset(&t, 0, sizeof t);
    int r = tcgetattr(fd[0], &t);
    int e = errno;
    printf("not a tty %d ENOTTY %d set %d\n", r, e == ENOTTY, tcsetattr(fd[0], TCSANOW, &t));
    int a = cfsetispeed(&t, B38400), b = cfsetospeed(&t, B38400);
    printf("speeds %d %d %d %d", a, b, cfgetispeed(&t) == B38400 ? 38400 : 0, cfgetospeed(&t) == B38400 ? 38400 : 0);
    cfsetspeed(&t, B9600);
    printf(" %d\n", cfgetospeed(&t) == B9600 ? 9600 : 0);
    t.c_lflag |= ICANON | ECHO;
    cfmakeraw(&t);
    printf("raw icanon %d echo %d opost %d cs8 %d vmin %d\n", (t.c_lflag & ICANON) != 0, (t.c_lflag & ECHO) != 0,
           (t.c_oflag & OPOST) != 0, (t.c_cflag & CS8) == CS8, t.c_cc[VMIN]);
    struct termios *small = malloc(32);
    return tcgetattr(fd[0], small);
}
