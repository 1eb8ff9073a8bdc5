/* gimso-test
 * expect: error out-of-bounds read
 * line: 80
 * env: GIMSO_ENV_TEST=present
 * stdout:
 * | constructor: environ set 1 has GIMSO_ENV_TEST 1
 * | main: envp is environ 1 has GIMSO_ENV_TEST 1
 * | setenv: environ has NEWVAR=1 1 getenv 1
 * | unsetenv: environ has NEWVAR 0 getenv 0
 * | assigned: getenv ONLY me GIMSO_ENV_TEST 0
 * | shell sees ONLY=me GIMSO_ENV_TEST=
 * | setenv after assigning: moved 1 ONLY 1 SECOND 1 count 2
 * | clearenv: environ NULL 1 getenv 0
 * | putenv: X=y 1 count 1
 */
/* `environ` is set before constructors, is main's envp, follows setenv,
 * unsetenv, putenv and clearenv, and an array the program assigns to it
 * becomes libc's environment (getenv, the shell of system); reading past
 * its NULL terminator is caught. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static int has(char **env, const char *entry) {
    size_t n = strlen(entry);
    for (; env && *env; env++)
        if (strncmp(*env, entry, n) == 0 && (entry[n - 1] == '=' || (*env)[n] == '=' || (*env)[n] == 0))
            return 1;
    return 0;
}

static int count(char **env) {
    int n = 0;
    for (; env && *env; env++)
        n++;
    return n;
}

__attribute__((constructor)) static void early(void) {
    printf("constructor: environ set %d has GIMSO_ENV_TEST %d\n", environ != NULL,
           has(environ, "GIMSO_ENV_TEST=present"));
}

int main(int argc, char **argv, char **envp) {
    (void)argc;
    (void)argv;
    printf("main: envp is environ %d has GIMSO_ENV_TEST %d\n", envp == environ,
           has(environ, "GIMSO_ENV_TEST=present"));

    setenv("NEWVAR", "1", 1);
    printf("setenv: environ has NEWVAR=1 %d getenv %d\n", has(environ, "NEWVAR=1"),
           getenv("NEWVAR") && strcmp(getenv("NEWVAR"), "1") == 0);
    unsetenv("NEWVAR");
    printf("unsetenv: environ has NEWVAR %d getenv %d\n", has(environ, "NEWVAR"), getenv("NEWVAR") != NULL);

    static char *mine[] = {"ONLY=me", NULL};
    environ = mine;
    const char *only = getenv("ONLY");
    printf("assigned: getenv ONLY %s GIMSO_ENV_TEST %d\n", only ? only : "(null)",
           getenv("GIMSO_ENV_TEST") != NULL);
    fflush(stdout);
    system("echo \"shell sees ONLY=$ONLY GIMSO_ENV_TEST=$GIMSO_ENV_TEST\"");

    setenv("SECOND", "2", 1);
    printf("setenv after assigning: moved %d ONLY %d SECOND %d count %d\n", environ != mine, has(environ, "ONLY=me"),
           has(environ, "SECOND=2"), count(environ));

    clearenv();
    printf("clearenv: environ NULL %d getenv %d\n", environ == NULL, getenv("SECOND") != NULL);
    static char entry[] = "X=y";
    putenv(entry);
    printf("putenv: X=y %d count %d\n", has(environ, "X=y"), count(environ));

    /* One past the NULL that ends the array. */
    char **env = environ;
    int n = count(env);
    return env[n + 1] != NULL;
}
