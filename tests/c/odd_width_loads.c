/* gimso-test
 * expect: run
 * stdout:
 * | 6 6 abcdef abcdefghijkl 7 12345678 77 99 100
 * | 97 5
 */
/* Loads and stores of integers whose width is not a power of two (i24,
 * i40, i104...) that end exactly at the end of an object: clang makes them
 * for bit-field storage units of packed structs and for structs of 3, 5,
 * 6, 7, 9-15 bytes passed and returned by value. They touch their own
 * bytes only and are checked for those, not for the padded size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct S5 { short a; unsigned short b; signed char c; };
struct S3 { char a, b, c; };
struct S7 { char a[7]; };
struct S13 { char a[13]; };
struct S11 { short a; char b[9]; };
struct S5 g5 = {1, 2, 3};
struct S3 g3 = {4, 5, 6};
struct S7 g7 = {"abcdef"};
struct S13 g13 = {"abcdefghijkl"};
struct S11 g11 = {7, "12345678"};

__attribute__((noinline)) static struct S5 r5(void) { return g5; }
__attribute__((noinline)) static struct S3 r3(void) { return g3; }
__attribute__((noinline)) static struct S7 r7(void) { return g7; }
__attribute__((noinline)) static struct S13 r13(void) { return g13; }
__attribute__((noinline)) static struct S11 r11(void) { return g11; }
__attribute__((noinline)) static int t5(struct S5 s) { return s.a + s.b + s.c; }
__attribute__((noinline)) static int t13(struct S13 s) { return s.a[12] + s.a[0]; }

#pragma pack(1)
struct P { char x; unsigned a : 20; };
struct Q { char x; unsigned long long a : 40; unsigned b : 30; };
#pragma pack()
struct P gp = {1, 77};
struct Q gq = {1, 99, 100};

int main(void) {
    struct S5 *h5 = malloc(sizeof *h5);
    *h5 = r5();
    struct S3 *h3 = malloc(sizeof *h3);
    *h3 = r3();
    struct S7 *h7 = malloc(sizeof *h7);
    *h7 = r7();
    struct S13 *h13 = malloc(sizeof *h13);
    *h13 = r13();
    struct S11 *h11 = malloc(sizeof *h11);
    *h11 = r11();
    struct P *hp = malloc(sizeof *hp);
    *hp = gp;
    struct Q *hq = calloc(1, sizeof *hq);
    hq->a = gq.a;
    hq->b = gq.b;
    printf("%d %d %s %s %d %s %u %llu %u\n", t5(*h5), h3->c, h7->a, h13->a, h11->a, h11->b, hp->a,
           (unsigned long long)hq->a, hq->b);
    struct P local = gp;
    local.a += 1;
    printf("%d %u\n", t13(*h13), gp.a - 72 + (local.a - 78));
    return 0;
}
