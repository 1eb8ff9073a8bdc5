/* gimso-test
 * expect: run
 * stdout:
 * | float bits 0x3fc00000
 * | double from bits 2.500000
 * | bytes of 0x01020304: 04 03 02 01
 * | char array as long: 0x0807060504030201
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

union fbits {
    float f;
    uint32_t u;
};

int main(void) {
    union fbits fb;
    fb.f = 1.5f;
    printf("float bits 0x%08x\n", fb.u);
    uint64_t bits = 0x4004000000000000ULL;
    double d;
    memcpy(&d, &bits, sizeof d);
    printf("double from bits %f\n", d);
    uint32_t x = 0x01020304;
    unsigned char *b = (unsigned char *)&x;
    printf("bytes of 0x01020304: %02x %02x %02x %02x\n", b[0], b[1], b[2], b[3]);
    unsigned char arr[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint64_t l;
    memcpy(&l, arr, 8);
    printf("char array as long: 0x%016llx\n", (unsigned long long)l);
    return 0;
}
