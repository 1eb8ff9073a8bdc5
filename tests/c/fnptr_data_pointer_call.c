/* gimso-test
 * expect: error call through non-function pointer
 * line: 13
 * native: no-asan (natively the heap is not executable: SIGSEGV)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*fn)(void);

__attribute__((noinline)) int run(fn f) {
    int r = f(); /* BUG */
    return r + 1;
}

int main(void) {
    /* x86-64 for "mov eax, 42; ret" */
    unsigned char code[8] = {0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3, 0x90, 0x90};
    unsigned char *buf = malloc(sizeof code);
    memcpy(buf, code, sizeof code);
    printf("%d\n", run((fn)(void *)buf));
    return 0;
}
