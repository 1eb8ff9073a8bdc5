/* gimso-test
 * expect: error out-of-bounds read
 * line: 83
 * native: differs (a forged posix_spawn_file_actions_t is EINVAL under gimso; natively glibc uses it as a pointer)
 * stdout:
 * | environ 1
 * | spawn 0 pid 1 out [hello spawn]
 * | spawnp 0 status 3
 * | open action 0 file [from sh]
 * | attr 0 flags 1 zeroed 0 forged EINVAL 1
 */
/* posix_spawn/posix_spawnp with file actions (dup2, close, open) and
 * attributes; an argv without its NULL terminator is caught. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(void) {
    int has_path = 0;
    for (char **e = environ; e && *e; e++)
        has_path |= strncmp(*e, "PATH=", 5) == 0;
    printf("environ %d\n", has_path);
    int p[2];
    pipe(p);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addclose(&fa, p[0]);
    char *argv[] = {"echo", "hello", "spawn", NULL};
    pid_t pid = 0;
    int r = posix_spawn(&pid, "/bin/echo", &fa, NULL, argv, environ);
    close(p[1]);
    char out[64] = {0};
    read(p[0], out, sizeof out - 1);
    out[strcspn(out, "\n")] = 0;
    int st;
    waitpid(pid, &st, 0);
    printf("spawn %d pid %d out [%s]\n", r, pid > 0, out);
    posix_spawn_file_actions_destroy(&fa);
    char *sh[] = {"sh", "-c", "exit 3", NULL};
    r = posix_spawnp(&pid, "sh", NULL, NULL, sh, environ);
    waitpid(pid, &st, 0);
    printf("spawnp %d status %d\n", r, WEXITSTATUS(st));
    char path[] = "/tmp/gimso-spawn-XXXXXX";
    close(mkstemp(path));
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, path, O_WRONLY | O_TRUNC, 0644);
    char *sh2[] = {"sh", "-c", "echo from sh", NULL};
    r = posix_spawnp(&pid, "sh", &fa, NULL, sh2, environ);
    waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    FILE *f = fopen(path, "r");
    char line[32] = {0};
    fgets(line, sizeof line, f);
    fclose(f);
    unlink(path);
    line[strcspn(line, "\n")] = 0;
    printf("open action %d file [%s]\n", r, line);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    short flags = 0;
    posix_spawnattr_getflags(&at, &flags);
    posix_spawn_file_actions_t zeroed, forged;
    memset(&zeroed, 0, sizeof zeroed);
    memset(&forged, 0x41, sizeof forged);
    printf("attr %d flags %d zeroed %d forged EINVAL %d\n", posix_spawnattr_setpgroup(&at, 0),
           flags == POSIX_SPAWN_SETPGROUP, posix_spawn_file_actions_addclose(&zeroed, 3),
           posix_spawn_file_actions_addclose(&forged, 3) == EINVAL);
    posix_spawn_file_actions_destroy(&zeroed);
    posix_spawnattr_destroy(&at);
    char **bad = malloc(2 * sizeof *bad);
    bad[0] = "true";
    bad[1] = "x"; /* no NULL after it */
    return posix_spawnp(&pid, "true", NULL, NULL, bad, environ);
}
