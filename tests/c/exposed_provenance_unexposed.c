/* gimso-test
 * expect: error access through pointer with null capability
 * line: 30
 * flags: -fgimso-exposed-provenance
 * native: no-asan (the address is valid natively)
 * stdout:
 * | exposed 5
 * | same address 1
 */
/* Exposed provenance reaches only objects whose pointer was converted to
 * an integer: an address learnt another way (printed with %p and parsed
 * back) gets no capability, though it names a live object. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int *shown = malloc(4 * sizeof *shown);
    shown[1] = 5;
    unsigned long n = (unsigned long)shown;
    printf("exposed %d\n", ((int *)n)[1]);

    int *hidden = malloc(4 * sizeof *hidden);
    hidden[1] = 6;
    char text[32];
    snprintf(text, sizeof text, "%p", (void *)hidden);
    void *back = NULL;
    sscanf(text, "%p", &back);
    printf("same address %d\n", back == (void *)hidden);
    volatile int *p = back;
    return p[1];
}
