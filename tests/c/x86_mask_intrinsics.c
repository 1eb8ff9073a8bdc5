/* gimso-test
 * expect: error out-of-bounds write
 * line: 45
 * flags: -mavx2
 * stdout:
 * | maskload 1 0 3 0 sum 4
 * | maskstore 9 2 9 4
 * | maskmov 7 1 7 1 7
 * | tail 1 6
 */
/* x86 masked loads and stores (AVX vmaskmov/vpmaskmov, SSE2 maskmovdqu):
 * lanes whose mask sign bit is set are checked; disabled lanes past the
 * end of the object are not accessed, an enabled one is caught. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int *v = malloc(4 * sizeof *v);
    for (int i = 0; i < 4; i++)
        v[i] = i + 1;
    /* Lanes 0 and 2 of eight: the other six (four past the object) untouched. */
    __m256i mask = _mm256_setr_epi32(-1, 0, -1, 0, 0, 0, 0, 0);
    __m256i got = _mm256_maskload_epi32(v, mask);
    int out[8];
    _mm256_storeu_si256((__m256i *)out, got);
    printf("maskload %d %d %d %d sum %d\n", out[0], out[1], out[2], out[3], out[0] + out[2]);
    _mm256_maskstore_epi32(v, mask, _mm256_set1_epi32(9));
    printf("maskstore %d %d %d %d\n", v[0], v[1], v[2], v[3]);

    char *b = malloc(5);
    for (int i = 0; i < 5; i++)
        b[i] = 1;
    __m128i bytes = _mm_setr_epi8(-1, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    _mm_maskmoveu_si128(_mm_set1_epi8(7), bytes, b);
    printf("maskmov %d %d %d %d %d\n", b[0], b[1], b[2], b[3], b[4]);

    /* Byte 4 is the object's last. */
    __m128i tail = _mm_setr_epi8(0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    _mm_maskmoveu_si128(_mm_set1_epi8(6), tail, b);
    printf("tail %d %d\n", b[3], b[4]);

    /* Byte 5 is past the object. */
    __m128i past = _mm_setr_epi8(0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    _mm_maskmoveu_si128(_mm_set1_epi8(5), past, b);
    return 0;
}
