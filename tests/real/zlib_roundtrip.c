/* zlib under gimso: a driver written here for the zlib sources of the
 * libz-sys crate (scripts/real-programs.sh builds both).
 *
 *   zlib_roundtrip gen BYTES FILE     writes BYTES of compressible text
 *   zlib_roundtrip run FILE TMPDIR    round-trips FILE through
 *       1. deflate/inflate streaming with 64 KiB buffers at levels 1, 6, 9,
 *       2. compress2/uncompress on the first MiB,
 *       3. gzopen/gzwrite/gzprintf then gzread/gzgets from TMPDIR/rt.gz,
 *   comparing every result with the input byte for byte, and prints sizes
 *   and checksums (the same under every build). Exit 0 only if all match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define CHUNK 65536

static unsigned long long rng = 88172645463325252ULL;
static unsigned next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)rng;
}

static int gen(long long bytes, const char *path) {
    static const char *words[] = {"gimso", "capability", "pointer", "collector", "the",
                                  "of", "memory", "safe", "bounds", "check", "zlib",
                                  "deflate", "inflate", "window", "huffman", "a", "and",
                                  "stream", "block", "literal", "length", "distance"};
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror("fopen");
        return 1;
    }
    char line[256];
    long long written = 0;
    while (written < bytes) {
        int n = 0;
        int count = 4 + next_rand() % 12;
        for (int i = 0; i < count; i++) {
            const char *w = words[next_rand() % (sizeof words / sizeof words[0])];
            n += snprintf(line + n, sizeof line - n, "%s%s", i ? " " : "", w);
        }
        n += snprintf(line + n, sizeof line - n, " %u\n", next_rand() % 100000);
        if (written + n > bytes)
            n = (int)(bytes - written);
        fwrite(line, 1, n, f);
        written += n;
    }
    return fclose(f) != 0;
}

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* deflate src into a growing buffer, then inflate it back; returns the
 * compressed size, or -1 if the round trip differs. */
static long stream_round_trip(const unsigned char *src, size_t len, int level) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, level) != Z_OK)
        return -1;
    size_t cap = deflateBound(&z, len) + 16, clen = 0;
    unsigned char *comp = malloc(cap);
    unsigned char out[CHUNK];
    size_t pos = 0;
    int flush;
    do {
        size_t in = len - pos < CHUNK ? len - pos : CHUNK;
        z.next_in = (unsigned char *)src + pos;
        z.avail_in = (unsigned)in;
        pos += in;
        flush = pos == len ? Z_FINISH : Z_NO_FLUSH;
        do {
            z.next_out = out;
            z.avail_out = CHUNK;
            if (deflate(&z, flush) == Z_STREAM_ERROR)
                return -1;
            size_t have = CHUNK - z.avail_out;
            memcpy(comp + clen, out, have);
            clen += have;
        } while (z.avail_out == 0);
    } while (flush != Z_FINISH);
    deflateEnd(&z);

    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return -1;
    size_t back = 0;
    int ret;
    z.next_in = comp;
    z.avail_in = (unsigned)clen;
    do {
        z.next_out = out;
        z.avail_out = CHUNK;
        ret = inflate(&z, Z_NO_FLUSH);
        if (ret != Z_OK && ret != Z_STREAM_END)
            return -1;
        size_t have = CHUNK - z.avail_out;
        if (back + have > len || memcmp(src + back, out, have) != 0)
            return -1;
        back += have;
    } while (ret != Z_STREAM_END);
    inflateEnd(&z);
    free(comp);
    return back == len ? (long)clen : -1;
}

static int run(const char *path, const char *dir) {
    size_t len;
    unsigned char *src = slurp(path, &len);
    printf("input %zu bytes, crc32 %08lx, adler32 %08lx\n", len,
           crc32(0L, src, (unsigned)len), adler32(1L, src, (unsigned)len));
    int ok = 1;
    for (int level = 1; level <= 9; level += level == 1 ? 5 : 3) {
        long c = stream_round_trip(src, len, level);
        printf("deflate level %d: %ld bytes, round trip %s\n", level, c, c < 0 ? "FAILED" : "ok");
        ok &= c >= 0;
    }

    uLong part = len < (1u << 20) ? len : (1u << 20);
    uLongf clen = compressBound(part);
    unsigned char *comp = malloc(clen);
    int r1 = compress2(comp, &clen, src, part, 9);
    unsigned char *back = malloc(part);
    uLongf blen = part;
    int r2 = uncompress(back, &blen, comp, clen);
    int same = r1 == Z_OK && r2 == Z_OK && blen == part && memcmp(back, src, part) == 0;
    printf("compress2/uncompress: %lu -> %lu bytes, %s\n", part, clen, same ? "ok" : "FAILED");
    ok &= same;

    char gz[4096];
    snprintf(gz, sizeof gz, "%s/rt.gz", dir);
    gzFile g = gzopen(gz, "wb6");
    if (!g)
        return 1;
    gzprintf(g, "header line %d\n", 42);
    for (size_t pos = 0; pos < len;) {
        unsigned n = len - pos < CHUNK ? (unsigned)(len - pos) : CHUNK;
        if (gzwrite(g, src + pos, n) != (int)n)
            return 1;
        pos += n;
    }
    gzclose(g);
    g = gzopen(gz, "rb");
    char header[64];
    gzgets(g, header, sizeof header);
    size_t got = 0;
    unsigned char *buf = malloc(CHUNK);
    int n, gz_same = strcmp(header, "header line 42\n") == 0;
    while ((n = gzread(g, buf, CHUNK)) > 0) {
        if (got + n > len || memcmp(buf, src + got, n) != 0)
            gz_same = 0;
        got += n;
    }
    gzclose(g);
    gz_same &= got == len;
    printf("gz file: header %s, %zu bytes read back, %s\n", gz_same ? "ok" : "bad", got,
           gz_same ? "ok" : "FAILED");
    ok &= gz_same;
    remove(gz);
    printf("zlib %s: %s\n", zlibVersion(), ok ? "all round trips identical" : "MISMATCH");
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "gen") == 0)
        return gen(atoll(argv[2]), argv[3]);
    if (argc == 4 && strcmp(argv[1], "run") == 0)
        return run(argv[2], argv[3]);
    fprintf(stderr, "usage: %s gen BYTES FILE | run FILE TMPDIR\n", argv[0]);
    return 2;
}
