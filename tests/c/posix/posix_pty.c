/* gimso-test
 * expect: error out-of-bounds write
 * line: 74
 * stdout:
 * | openpt 1 grant 0 unlock 0 name /dev/pts/ 1 same 1
 * | ptsname_r ERANGE 1 notty 1
 * | openpty 0 name 1 isatty 1 1 rows 24
 * | forkpty child said: hello from the slave
 * | child exited 0
 */
/* Pseudo-terminals: posix_openpt/grantpt/unlockpt/ptsname(_r), openpty
 * with a window size, forkpty (the child's stdout is the terminal, read
 * by the parent through the master); an openpty name buffer too short for
 * the terminal's name is caught. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

int main(void) {
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    int g = grantpt(m), u = unlockpt(m);
    char *name = ptsname(m);
    char buf[64];
    int r = ptsname_r(m, buf, sizeof buf);
    printf("openpt %d grant %d unlock %d name %.9s %d same %d\n", m >= 0, g, u, name, r == 0,
           strcmp(name, buf) == 0);
    char tiny[4];
    int pipefd[2];
    pipe(pipefd);
    printf("ptsname_r ERANGE %d notty %d\n", ptsname_r(m, tiny, sizeof tiny) == ERANGE,
           ptsname_r(pipefd[0], buf, sizeof buf) != 0);

    int am, as;
    char pname[64];
    struct winsize ws = {.ws_row = 24, .ws_col = 80};
    int o = openpty(&am, &as, pname, NULL, &ws);
    struct winsize got;
    ioctl(as, TIOCGWINSZ, &got);
    printf("openpty %d name %d isatty %d %d rows %d\n", o, strncmp(pname, "/dev/pts/", 9) == 0, isatty(am),
           isatty(as), got.ws_row);

    int master;
    struct termios raw;
    cfmakeraw(&raw);
    fflush(stdout);
    pid_t pid = forkpty(&master, NULL, &raw, NULL);
    if (pid == 0) {
        fputs("hello from the slave", stdout);
        fflush(stdout);
        _exit(0);
    }
    char said[64] = {0};
    size_t have = 0;
    while (have < 20) {
        ssize_t k = read(master, said + have, sizeof said - 1 - have);
        if (k <= 0)
            break;
        have += k;
    }
    int st;
    waitpid(pid, &st, 0);
    printf("forkpty child said: %s\n", said);
    printf("child exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);

    char *short_name = malloc(8);
    return openpty(&am, &as, short_name, NULL, NULL);
}
