/* zstd under gimso: a driver written here for the zstd library sources of
 * the zstd-sys crate (scripts/real-programs.sh builds both).
 *
 *   zstd_roundtrip BYTES   generates BYTES of compressible text, then
 *       1. ZSTD_compress/ZSTD_decompress at levels 1, 3, 9 and 19,
 *       2. ZSTD_compressStream2/ZSTD_decompressStream with odd-sized input
 *          and output buffers and a checksum, first in the calling thread,
 *          then with two worker threads compressing 512 KiB jobs (zstd's
 *          own thread pool: pthread mutexes, condition variables, thread
 *          creation and exit under the collector),
 *       3. a corrupted frame, which must decode to an error,
 *   comparing every result with the input byte for byte, and prints sizes
 *   (the same under every build: zstd's output is deterministic). Exit 0
 *   only if all match.
 *
 * The library's register-only inline asm (cpuid, a cmova pointer select,
 * alignment directives) and its weak tracing hooks compile under gimso; its
 * amd64 assembly file does not, so the build passes ZSTD_DISABLE_ASM (and
 * ZSTD_MULTITHREAD for the worker threads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zstd.h"

static unsigned long long rng = 88172645463325252ULL;
static unsigned next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

static unsigned char *generate(size_t n) {
    static const char *words[] = {"alpha ", "beta ", "gamma ", "delta ", "epsilon ",
                                  "zeta ", "eta ", "theta\n", "iota ", "kappa, "};
    unsigned char *b = malloc(n);
    if (!b) return NULL;
    size_t i = 0;
    while (i < n) {
        unsigned r = next_rand();
        const char *w = words[r % 10];
        for (size_t j = 0; w[j] && i < n; j++) b[i++] = (unsigned char)w[j];
        if (r % 13 == 0 && i < n) b[i++] = (unsigned char)(r >> 8);
    }
    return b;
}

static int one_shot(const unsigned char *src, size_t n, int level) {
    size_t bound = ZSTD_compressBound(n);
    unsigned char *c = malloc(bound), *d = malloc(n);
    int ok = 0;
    size_t cs = ZSTD_compress(c, bound, src, n, level);
    if (ZSTD_isError(cs)) {
        printf("level %d: compress: %s\n", level, ZSTD_getErrorName(cs));
    } else if (ZSTD_getFrameContentSize(c, cs) != n) {
        printf("level %d: frame content size wrong\n", level);
    } else {
        size_t ds = ZSTD_decompress(d, n, c, cs);
        ok = !ZSTD_isError(ds) && ds == n && memcmp(d, src, n) == 0;
        printf("level %d: %zu -> %zu bytes, round trip %s\n", level, n, cs, ok ? "ok" : "FAILED");
    }
    free(c);
    free(d);
    return ok;
}

static int streaming(const unsigned char *src, size_t n, int workers, unsigned char **frame, size_t *size) {
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 5);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    if (workers) {
        size_t r = ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, workers);
        if (ZSTD_isError(r)) {
            printf("workers: %s\n", ZSTD_getErrorName(r));
            return 0;
        }
        ZSTD_CCtx_setParameter(cc, ZSTD_c_jobSize, 512 * 1024);
    }
    size_t cap = ZSTD_compressBound(n) + 4096, pos = 0, fed = 0;
    unsigned char *c = malloc(cap);
    for (;;) {
        size_t chunk = n - fed < 4097 ? n - fed : 4097;
        ZSTD_inBuffer in = {src + fed, chunk, 0};
        ZSTD_EndDirective mode = fed + chunk == n ? ZSTD_e_end : ZSTD_e_continue;
        for (;;) {
            size_t room = cap - pos < 3001 ? cap - pos : 3001;
            ZSTD_outBuffer out = {c + pos, room, 0};
            size_t r = ZSTD_compressStream2(cc, &out, &in, mode);
            if (ZSTD_isError(r)) {
                printf("stream compress: %s\n", ZSTD_getErrorName(r));
                return 0;
            }
            pos += out.pos;
            if (mode == ZSTD_e_end ? r == 0 : in.pos == in.size) break;
        }
        fed += chunk;
        if (fed == n) break;
    }
    ZSTD_freeCCtx(cc);

    ZSTD_DCtx *dc = ZSTD_createDCtx();
    unsigned char *d = malloc(n + 1);
    size_t dpos = 0;
    ZSTD_inBuffer in = {c, pos, 0};
    size_t r = 1;
    while (r != 0) {
        size_t room = n + 1 - dpos < 5003 ? n + 1 - dpos : 5003;
        ZSTD_outBuffer out = {d + dpos, room, 0};
        r = ZSTD_decompressStream(dc, &out, &in);
        if (ZSTD_isError(r)) {
            printf("stream decompress: %s\n", ZSTD_getErrorName(r));
            return 0;
        }
        dpos += out.pos;
        if (in.pos == in.size && out.pos == 0 && r != 0) {
            printf("stream decompress: truncated\n");
            return 0;
        }
    }
    ZSTD_freeDCtx(dc);
    int ok = dpos == n && memcmp(d, src, n) == 0;
    printf("stream (%d workers): %zu -> %zu bytes, round trip %s\n", workers, n, pos, ok ? "ok" : "FAILED");
    free(d);
    *frame = c;
    *size = pos;
    return ok;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
    unsigned char *src = generate(n);
    if (!src || n < 1024) {
        fprintf(stderr, "usage: zstd_roundtrip BYTES (at least 1024)\n");
        return 2;
    }
    int ok = 1;
    const int levels[] = {1, 3, 9, 19};
    for (int i = 0; i < 4; i++) ok &= one_shot(src, n, levels[i]);

    unsigned char *frame = NULL;
    size_t size = 0;
    ok &= streaming(src, n, 0, &frame, &size);
    unsigned char *threaded = NULL;
    size_t threaded_size = 0;
    ok &= streaming(src, n, 2, &threaded, &threaded_size);
    free(threaded);

    if (frame) {
        /* Flip bytes in the middle of the frame: the checksum or the
         * entropy decoder must notice, and nothing may be written outside
         * the output buffer. */
        for (size_t i = size / 2; i < size / 2 + 8 && i < size; i++) frame[i] ^= 0x5a;
        unsigned char *d = malloc(n);
        size_t r = ZSTD_decompress(d, n, frame, size);
        int caught = ZSTD_isError(r) || (r == n && memcmp(d, src, n) != 0);
        printf("corrupted frame: %s\n", ZSTD_isError(r) ? "error reported" : "decoded");
        ok &= caught;
        free(d);
        free(frame);
    }
    printf("%s\n", ok ? "zstd: all round trips identical" : "zstd: FAILED");
    free(src);
    return ok ? 0 : 1;
}
