/* gimso-test
 * expect: run
 * stdout:
 * | open 1 write 64 lseek 0 read 64 same 1
 * | short read 6 tail intact 1
 * | pread 8 [ghijklmn] pwrite 3 pread [XYZjklmn]
 * | fstat size 64 reg 1 stat size 64 lstat link 1 fstatat 64
 * | ftruncate 10 stat 10 truncate 5 stat 5
 * | dup ok 1 dup2 ok 1 fcntl cloexec 1 append 1
 * | flock: setlk 0 getlk 0 type unlck 1
 * | pipe 5 fionread 5 read [hello]
 * | access rw 0 missing -1 ENOENT 1
 * | mkdir 0 exists -1 EEXIST 1 rmdir 0
 * | chdir 0 getcwd ends in dir 1 malloc'd 1 NULL buffer 1
 * | realpath resolves 1 fresh 1
 * | symlink 0 readlink 8 [data.txt] link 0 nlink 2
 * | chmod 0 mode 600 fchmod 0 mode 640 umask 022
 * | utime 0 mtime 1000000 utimes 0 mtime 2000000 futimens 0 utimensat 0 mtime 3000000
 * | mkstemp ok 1 template changed 1 unlinked 0
 * | isatty 0 ENOTTY 1 ioctl other -1 ENOTTY 1 fcntl bad -1 EINVAL 1
 * | openat 1 unlinkat 0 faccessat -1
 * | cleanup 0
 */
/* The POSIX file-descriptor and file-system wrappers, on files in a fresh
 * directory made with mkdtemp under /tmp. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>
#include <utime.h>

static char dir[64];

static char *in_dir(const char *name) {
    static char buf[4][256];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, 256, "%s/%s", dir, name);
    return b;
}

int main(void) {
    strcpy(dir, "/tmp/gimso-posix-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (char)('a' + i % 26);

    char file[256];
    strcpy(file, in_dir("data.txt"));
    int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
    ssize_t w = write(fd, data, sizeof data);
    off_t pos = lseek(fd, 0, SEEK_SET);
    char back[64];
    ssize_t r = read(fd, back, sizeof back);
    printf("open %d write %zd lseek %lld read %zd same %d\n", fd >= 0, w, (long long)pos, r,
           memcmp(data, back, 64) == 0);

    /* A short read leaves the rest of the buffer as it was. */
    char big[16];
    memset(big, '#', sizeof big);
    lseek(fd, 58, SEEK_SET);
    r = read(fd, big, sizeof big);
    printf("short read %zd tail intact %d\n", r, big[6] == '#' && big[15] == '#');

    char eight[9] = {0};
    ssize_t pr = pread(fd, eight, 8, 6);
    printf("pread %zd [%s]", pr, eight);
    ssize_t pw = pwrite(fd, "XYZ", 3, 6);
    pread(fd, eight, 8, 6);
    printf(" pwrite %zd pread [%s]\n", pw, eight);

    struct stat st;
    int fs = fstat(fd, &st);
    struct stat st2;
    stat(file, &st2);
    symlink("data.txt", in_dir("link"));
    struct stat st3;
    lstat(in_dir("link"), &st3);
    struct stat st4;
    fstatat(AT_FDCWD, file, &st4, 0);
    printf("fstat size %lld reg %d stat size %lld lstat link %d fstatat %lld\n",
           fs == 0 ? (long long)st.st_size : -1LL, S_ISREG(st.st_mode), (long long)st2.st_size,
           S_ISLNK(st3.st_mode), (long long)st4.st_size);

    int ft = ftruncate(fd, 10);
    stat(file, &st);
    printf("ftruncate %d stat %lld", ft + 10, (long long)st.st_size);
    int tr = truncate(file, 5);
    stat(file, &st);
    printf(" truncate %d stat %lld\n", tr + 5, (long long)st.st_size);

    int d = dup(fd);
    int d2 = dup2(fd, 40);
    int cl = fcntl(d, F_SETFD, FD_CLOEXEC);
    int flags = fcntl(d, F_GETFD);
    fcntl(fd, F_SETFL, O_APPEND);
    printf("dup ok %d dup2 ok %d fcntl cloexec %d append %d\n", d > fd, d2 == 40,
           cl == 0 && (flags & FD_CLOEXEC), (fcntl(fd, F_GETFL) & O_APPEND) != 0);
    close(d);
    close(d2);

    struct flock lk = {0};
    lk.l_type = F_WRLCK;
    lk.l_whence = SEEK_SET;
    lk.l_start = 0;
    lk.l_len = 4;
    int sl = fcntl(fd, F_SETLK, &lk);
    struct flock q = {0};
    q.l_type = F_WRLCK;
    q.l_whence = SEEK_SET;
    q.l_len = 4;
    int gl = fcntl(fd, F_GETLK, &q);
    /* Our own lock never conflicts with us. */
    printf("flock: setlk %d getlk %d type unlck %d\n", sl, gl, q.l_type == F_UNLCK);
    close(fd);

    int p[2];
    int pp = pipe(p);
    ssize_t pw2 = write(p[1], "hello", 5);
    int avail = -1;
    ioctl(p[0], FIONREAD, &avail);
    char hello[6] = {0};
    read(p[0], hello, 5);
    printf("pipe %zd fionread %d read [%s]\n", pp == 0 ? pw2 : -1, avail, hello);
    close(p[0]);
    close(p[1]);

    int a1 = access(file, R_OK | W_OK);
    errno = 0;
    int a2 = access(in_dir("missing"), F_OK);
    printf("access rw %d missing %d ENOENT %d\n", a1, a2, errno == ENOENT);

    int m1 = mkdir(in_dir("sub"), 0755);
    int m2 = mkdir(in_dir("sub"), 0755);
    int e2 = errno;
    int rd = rmdir(in_dir("sub"));
    printf("mkdir %d exists %d EEXIST %d rmdir %d\n", m1, m2, e2 == EEXIST, rd);

    mkdir(in_dir("cwd"), 0755);
    int cd = chdir(in_dir("cwd"));
    char cwd[256];
    char *g = getcwd(cwd, sizeof cwd);
    size_t n = strlen(cwd);
    char *heap = malloc(256);
    char *g2 = getcwd(heap, 256);
    char *g3 = getcwd(NULL, 0);
    printf("chdir %d getcwd ends in dir %d malloc'd %d NULL buffer %d\n", cd,
           g == cwd && n > 4 && strcmp(cwd + n - 4, "/cwd") == 0, g2 == heap && !strcmp(heap, cwd),
           g3 && !strcmp(g3, cwd));
    chdir("/");
    rmdir(in_dir("cwd"));

    char resolved[4096];
    char *rp = realpath(in_dir("link"), resolved);
    char *rp2 = realpath(in_dir("link"), NULL);
    size_t rl = rp ? strlen(rp) : 0;
    printf("realpath resolves %d fresh %d\n", rp == resolved && rl > 9 && !strcmp(rp + rl - 9, "/data.txt"),
           rp2 && !strcmp(rp2, resolved));

    char target[32] = {0};
    unlink(in_dir("link"));
    int sy = symlink("data.txt", in_dir("link"));
    ssize_t rl2 = readlink(in_dir("link"), target, sizeof target - 1);
    int ln = link(file, in_dir("hard"));
    stat(file, &st);
    printf("symlink %d readlink %zd [%s] link %d nlink %d\n", sy, rl2, target, ln, (int)st.st_nlink);

    int ch = chmod(file, 0600);
    stat(file, &st);
    printf("chmod %d mode %o", ch, st.st_mode & 0777);
    fd = open(file, O_RDONLY);
    int fch = fchmod(fd, 0640);
    fstat(fd, &st);
    mode_t old = umask(022);
    umask(old);
    printf(" fchmod %d mode %o umask %03o\n", fch, st.st_mode & 0777, old);

    struct utimbuf ub = {1000000, 1000000};
    int ut = utime(file, &ub);
    stat(file, &st);
    printf("utime %d mtime %lld", ut, (long long)st.st_mtime);
    struct timeval tv[2] = {{2000000, 0}, {2000000, 0}};
    int uts = utimes(file, tv);
    stat(file, &st);
    printf(" utimes %d mtime %lld", uts, (long long)st.st_mtime);
    struct timespec ts[2] = {{3000000, 0}, {3000000, 0}};
    int fut = futimens(fd, ts);
    int uns = utimensat(AT_FDCWD, file, ts, 0);
    stat(file, &st);
    printf(" futimens %d utimensat %d mtime %lld\n", fut, uns, (long long)st.st_mtime);

    char tmpl[128];
    snprintf(tmpl, sizeof tmpl, "%s/tmpXXXXXX", dir);
    int t = mkstemp(tmpl);
    int changed = strstr(tmpl, "XXXXXX") == NULL;
    close(t);
    printf("mkstemp ok %d template changed %d unlinked %d\n", t >= 0, changed, unlink(tmpl));

    errno = 0;
    int tty = isatty(fd);
    int e_tty = errno;
    struct winsize ws;
    int io = ioctl(fd, TIOCSWINSZ, &ws);
    int e_io = errno;
    int fb = fcntl(fd, 12345);
    int e_fb = errno;
    printf("isatty %d ENOTTY %d ioctl other %d ENOTTY %d fcntl bad %d EINVAL %d\n", tty,
           e_tty == ENOTTY, io, e_io == ENOTTY, fb, e_fb == EINVAL);
    close(fd);

    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    int of = openat(dfd, "new.txt", O_WRONLY | O_CREAT, 0600);
    close(of);
    int ua = unlinkat(dfd, "new.txt", 0);
    int fa = faccessat(dfd, "new.txt", F_OK, 0);
    printf("openat %d unlinkat %d faccessat %d\n", of >= 0, ua, fa);
    close(dfd);

    int rc = unlink(in_dir("link")) | unlink(in_dir("hard")) | unlink(file) | rmdir(dir);
    printf("cleanup %d\n", rc);
    return 0;
}
