/* Shared by programs made of cases that each run twice in a child
 * process: once within bounds (`extra` 0), which must exit cleanly and
 * silently, and once one step past (`extra` 1), which must be stopped with
 * an out-of-bounds report. `oob_cases_main` prints how many behaved. */
#ifndef OOB_CASES_H
#define OOB_CASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef void (*oob_case)(int extra);

/* Runs `c` in a child; returns 1 if it behaved. */
static int oob_case_run(oob_case c, int i, int extra) {
    int err[2];
    if (pipe(err) != 0)
        exit(2);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(err[0]);
        dup2(err[1], 2);
        c(extra);
        _exit(0);
    }
    close(err[1]);
    char report[64] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof report - 1 && (r = read(err[0], report + got, sizeof report - 1 - got)) > 0)
        got += (size_t)r;
    char drain[256];
    while (read(err[0], drain, sizeof drain) > 0)
        ;
    close(err[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const char *want = "gimso: safety error: out-of-bounds";
    int ok = extra ? WIFEXITED(status) && WEXITSTATUS(status) == 134 &&
                         strncmp(report, want, strlen(want)) == 0
                   : WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == 0;
    if (!ok)
        printf("case %d (%s): status %#x, stderr \"%.40s\"\n", i, extra ? "past" : "within", status,
               report);
    return ok;
}

static int oob_cases_main(const oob_case *cases, int n) {
    int good = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        good += oob_case_run(cases[i], i, 0);
        bad += oob_case_run(cases[i], i, 1);
    }
    printf("in bounds: %d/%d\n", good, n);
    printf("out of bounds: %d/%d\n", bad, n);
    return 0;
}

#endif
