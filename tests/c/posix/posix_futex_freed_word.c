/* gimso-test
 * expect: error use after free
 * line: 17
 */
// A futex operation on a word that was freed: the kernel would read it,
// so the wrapper checks it first.
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    unsigned *word = malloc(sizeof *word);
    *word = 0;
    free(word);
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0); /* BUG */
    return 0;
}
