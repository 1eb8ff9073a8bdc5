/* gimso-test
 * expect: run
 * stdout:
 * | popen mktemp pclose 0
 * | fopen ok
 * | fwrite 16 ftell 16
 * | fseek 0
 * | fread 5 'hello' ftell 5
 * | fgetc 10
 * | ungetc W
 * | fgets Wworld
 * | fgetpos 0
 * | getline 4 'last' cap>=1
 * | feof 1 ferror 0
 * | getline at eof -1 feof 1
 * | clearerr feof 0
 * | fsetpos 0
 * | getdelim 3 'las' same 1
 * | getline grows 6 'hello
 * | ' cap 1
 * | fseeko 0 ftello 12
 * | fileno>2 1
 * | fclose 0
 * | freopen same 1
 * | rename 0
 * | fopen old NULL errno ENOENT 1
 * | fdopen read 21 feof 1
 * | hello
 * | world
 * | last+more
 * | remove 0 -1
 * | tmpfile fscanf 3 42 tmp 2.50
 * | rmdir pclose 0
 * | popen echo hi
 * | pclose exit 3
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    /* A fresh directory with a unique name, made by mktemp(1). */
    char dir[64] = {0};
    FILE *p = popen("mktemp -d /tmp/gimso-stdio-XXXXXX", "r");
    if (!p || !fgets(dir, sizeof dir, p)) return 1;
    dir[strcspn(dir, "\n")] = 0;
    printf("popen mktemp pclose %d\n", pclose(p));
    char cmd[128];
    char path[128], path2[128];
    snprintf(path, sizeof path, "%s/a.txt", dir);
    snprintf(path2, sizeof path2, "%s/b.txt", dir);

    FILE *f = fopen(path, "w+");
    printf("fopen %s\n", f ? "ok" : "failed");
    size_t w = fwrite("hello\nworld\nlast", 1, 16, f);
    printf("fwrite %zu ftell %ld\n", w, ftell(f));
    printf("fseek %d\n", fseek(f, 0, SEEK_SET));
    char buf[32] = {0};
    size_t r = fread(buf, 1, 5, f);
    printf("fread %zu '%s' ftell %ld\n", r, buf, ftell(f));
    printf("fgetc %d\n", fgetc(f));
    printf("ungetc %c\n", ungetc('W', f));
    printf("fgets %s", fgets(buf, sizeof buf, f));
    fpos_t pos;
    printf("fgetpos %d\n", fgetpos(f, &pos));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, f);
    printf("getline %zd '%s' cap>=%d\n", n, line, cap >= 5);
    printf("feof %d ferror %d\n", feof(f) != 0, ferror(f));
    n = getline(&line, &cap, f);
    printf("getline at eof %zd feof %d\n", n, feof(f) != 0);
    clearerr(f);
    printf("clearerr feof %d\n", feof(f));
    printf("fsetpos %d\n", fsetpos(f, &pos));
    char *small = malloc(4);
    size_t scap = 4;
    char *sp = small;
    n = getdelim(&sp, &scap, 's', f);
    printf("getdelim %zd '%s' same %d\n", n, sp, sp == small);
    rewind(f);
    n = getline(&sp, &scap, f);
    printf("getline grows %zd '%s' cap %d\n", n, sp, scap >= 7);
    printf("fseeko %d ftello %lld\n", fseeko(f, -4, SEEK_END), (long long)ftello(f));
    printf("fileno>2 %d\n", fileno(f) > 2);
    printf("fclose %d\n", fclose(f));
    free(line);
    free(sp);

    f = fopen(path, "r");
    FILE *same = freopen(path, "a", f);
    printf("freopen same %d\n", same == f);
    fputs("+more", f);
    fclose(f);
    printf("rename %d\n", rename(path, path2));
    printf("fopen old %s errno ENOENT %d\n", fopen(path, "r") ? "opened" : "NULL", errno == ENOENT);
    f = fopen(path2, "r");
    /* f stays open (unused): closing both streams would close fd twice. */
    FILE *orig = f;
    f = fdopen(fileno(orig), "r");
    setvbuf(f, NULL, _IOFBF, 64);
    char whole[64] = {0};
    r = fread(whole, 1, sizeof whole - 1, f);
    printf("fdopen read %zu feof %d\n", r, feof(f) != 0);
    fwrite(whole, 1, r, stdout);
    putchar('\n');
    fclose(f);
    printf("remove %d %d\n", remove(path2), remove(path2));

    f = tmpfile();
    fprintf(f, "%d %s %.2f", 42, "tmp", 2.5);
    rewind(f);
    char word[8];
    int a = 0;
    double d = 0;
    int got = fscanf(f, "%d %7s %lf", &a, word, &d);
    printf("tmpfile fscanf %d %d %s %.2f\n", got, a, word, d);
    fclose(f);

    setlinebuf(stdout);
    static char vbuf[BUFSIZ];
    setbuf(stdout, vbuf);
    setvbuf(stdout, NULL, _IOLBF, 0);
    snprintf(cmd, sizeof cmd, "rmdir %s", dir);
    p = popen(cmd, "r");
    printf("rmdir pclose %d\n", pclose(p));
    p = popen("echo hi; exit 3", "r");
    char hi[8] = {0};
    printf("popen echo %s", fgets(hi, sizeof hi, p));
    int status = pclose(p);
    printf("pclose exit %d\n", status >> 8);
    return 0;
}
