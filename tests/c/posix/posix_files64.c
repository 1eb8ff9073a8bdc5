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
/* posix_files.c with 64-bit file offsets: glibc's headers bind open, lseek,
 * stat, readdir, mkstemp... to their *64 names. */
#define _FILE_OFFSET_BITS 64
#include "posix_files.c"
