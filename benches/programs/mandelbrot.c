/* mandelbrot (Computer Language Benchmarks Game style), printing a checksum
 * of the bitmap instead of the image.
 * Usage: mandelbrot [size]   (default 3600) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int w = argc > 1 ? atoi(argv[1]) : 3600, h = w;
    int row_bytes = (w + 7) / 8;
    unsigned char *bits = calloc((size_t)row_bytes * h, 1);
    for (int y = 0; y < h; y++) {
        double ci = 2.0 * y / h - 1.0;
        for (int x = 0; x < w; x++) {
            double cr = 2.0 * x / w - 1.5;
            double zr = 0, zi = 0, tr = 0, ti = 0;
            int i;
            for (i = 0; i < 50 && tr + ti <= 4.0; i++) {
                zi = 2.0 * zr * zi + ci;
                zr = tr - ti + cr;
                tr = zr * zr;
                ti = zi * zi;
            }
            if (tr + ti <= 4.0)
                bits[(size_t)y * row_bytes + x / 8] |= (unsigned char)(0x80 >> (x % 8));
        }
    }
    unsigned long sum = 0, set = 0;
    for (size_t i = 0; i < (size_t)row_bytes * h; i++) {
        sum = sum * 131 + bits[i];
        set += __builtin_popcount(bits[i]);
    }
    printf("P4 %d %d: %lu points in set, checksum %lu\n", w, h, set, sum);
    free(bits);
    return 0;
}
