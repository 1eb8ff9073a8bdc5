/* gimso-test
 * expect: run
 * stdout:
 * | opendir 1 missing NULL 1 ENOENT 1
 * | entries: a.txt b.txt c.dir (3)
 * | dirfd ok 1 rewind again 3 telldir/seekdir 1
 * | fdopendir entries 3
 * | closedir 0 0
 * | cleanup 0
 */
/* posix_dir.c with 64-bit file offsets: glibc's headers bind open, lseek,
 * stat, readdir, mkstemp... to their *64 names. */
#define _FILE_OFFSET_BITS 64
#include "posix_dir.c"
