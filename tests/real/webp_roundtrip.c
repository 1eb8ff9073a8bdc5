/* libwebp under gimso: lossy and lossless encoding of generated
 * RGB and RGBA images through libwebp's simple API, decoded back to RGB,
 * RGBA and BGRA; prints sizes and hashes to compare with the plain build.
 * The lossless RGB image must come back byte for byte.
 *   webp_roundtrip SCALE   (image sides grow with SCALE) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webp/decode.h"
#include "webp/encode.h"

static unsigned long hash(const unsigned char *p, size_t n) {
    unsigned long s = 1469598103934665603UL;
    for (size_t i = 0; i < n; i++)
        s = (s ^ p[i]) * 1099511628211UL;
    return s;
}

static unsigned char *image(int w, int h, int channels) {
    unsigned char *img = malloc((size_t)w * h * channels);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned char *p = img + (size_t)channels * (y * w + x);
            p[0] = (unsigned char)(x * 255 / w);
            p[1] = (unsigned char)(y * 255 / h);
            p[2] = (unsigned char)((x * y) ^ (x >> 3));
            if (channels == 4)
                p[3] = (unsigned char)((x + 2 * y) & 255);
        }
    return img;
}

int main(int argc, char **argv) {
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    int w = 301 * scale, h = 199 * scale;
    unsigned char *rgb = image(w, h, 3);
    unsigned char *rgba = image(w, h, 4);
    int failures = 0;
    for (int q = 10; q <= 100; q += 30) {
        uint8_t *out = NULL;
        size_t n = WebPEncodeRGB(rgb, w, h, w * 3, (float)q, &out);
        int dw = 0, dh = 0;
        uint8_t *dec = WebPDecodeRGB(out, n, &dw, &dh);
        printf("rgb q%d: %zu bytes, %dx%d, %016lx\n", q, n, dw, dh, hash(dec, (size_t)dw * dh * 3));
        WebPFree(dec);
        WebPFree(out);
        n = WebPEncodeRGBA(rgba, w, h, w * 4, (float)q, &out);
        dec = WebPDecodeRGBA(out, n, &dw, &dh);
        uint8_t *bgra = WebPDecodeBGRA(out, n, &dw, &dh);
        printf("rgba q%d: %zu bytes, %016lx %016lx\n", q, n, hash(dec, (size_t)dw * dh * 4),
               hash(bgra, (size_t)dw * dh * 4));
        WebPFree(dec);
        WebPFree(bgra);
        WebPFree(out);
    }
    uint8_t *out = NULL;
    size_t n = WebPEncodeLosslessRGB(rgb, w, h, w * 3, &out);
    int dw = 0, dh = 0;
    uint8_t *dec = WebPDecodeRGB(out, n, &dw, &dh);
    int same = dec && dw == w && dh == h && memcmp(dec, rgb, (size_t)w * h * 3) == 0;
    failures += !same;
    printf("lossless rgb: %zu bytes, identical %d\n", n, same);
    WebPFree(dec);
    WebPFree(out);
    n = WebPEncodeLosslessRGBA(rgba, w, h, w * 4, &out);
    dec = WebPDecodeRGBA(out, n, &dw, &dh);
    printf("lossless rgba: %zu bytes, %016lx\n", n, hash(dec, (size_t)dw * dh * 4));
    WebPFree(dec);
    WebPFree(out);
    /* A truncated stream is refused. */
    n = WebPEncodeRGB(rgb, w, h, w * 3, 75.0f, &out);
    dec = WebPDecodeRGB(out, n / 2, &dw, &dh);
    printf("truncated refused %d\n", dec == NULL);
    failures += dec != NULL;
    WebPFree(out);
    printf(failures ? "FAILED\n" : "all round trips as expected\n");
    return failures != 0;
}
