/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=20
 * stdout:
 * | opendir 1 missing NULL 1 ENOENT 1
 * | entries: a.txt b.txt c.dir (3)
 * | dirfd ok 1 rewind again 3 telldir/seekdir 1
 * | fdopendir entries 3
 * | closedir 0 0
 * | cleanup 0
 */
/* Directory streams: opendir/readdir/rewinddir/dirfd/telldir/seekdir/
 * fdopendir/closedir, with the collector under torture (the entry object
 * is held only by the runtime between calls). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the names (without . and ..) sorted; returns their count. */
static int names(DIR *d, char **out, int max, int *same) {
    int n = 0;
    struct dirent *first = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!first)
            first = e;
        *same = *same && e == first;
        for (int i = 0; i < 1000; i++)
            (void)malloc(64); /* churn: collections between readdirs */
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n < max)
            out[n++] = strdup(e->d_name);
    }
    qsort(out, n, sizeof *out, cmp);
    return n;
}

int main(void) {
    char dir[] = "/tmp/gimso-dir-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[128];
    const char *files[] = {"b.txt", "a.txt"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        close(open(path, O_WRONLY | O_CREAT, 0644));
    }
    snprintf(path, sizeof path, "%s/c.dir", dir);
    mkdir(path, 0755);

    DIR *d = opendir(dir);
    errno = 0;
    DIR *none = opendir("/nonexistent/gimso");
    printf("opendir %d missing NULL %d ENOENT %d\n", d != NULL, none == NULL, errno == ENOENT);

    char *out[8];
    int same = 1;
    int n = names(d, out, 8, &same);
    printf("entries:");
    for (int i = 0; i < n; i++)
        printf(" %s", out[i]);
    printf(" (%d)\n", n);
    (void)same; /* gimso reuses one entry object per stream; glibc need not */

    int fd = dirfd(d);
    rewinddir(d);
    int again = names(d, out, 8, &same);
    rewinddir(d);
    long loc = telldir(d);
    struct dirent *e1 = readdir(d);
    char first[256];
    strcpy(first, e1->d_name);
    seekdir(d, loc);
    struct dirent *e2 = readdir(d);
    printf("dirfd ok %d rewind again %d telldir/seekdir %d\n", fd >= 0, again,
           strcmp(first, e2->d_name) == 0);

    int fd2 = open(dir, O_RDONLY | O_DIRECTORY);
    DIR *d2 = fdopendir(fd2);
    printf("fdopendir entries %d\n", names(d2, out, 8, &same));
    printf("closedir %d %d\n", closedir(d), closedir(d2));

    int rc = 0;
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        rc |= unlink(path);
    }
    snprintf(path, sizeof path, "%s/c.dir", dir);
    rc |= rmdir(path);
    rc |= rmdir(dir);
    printf("cleanup %d\n", rc);
    return 0;
}
