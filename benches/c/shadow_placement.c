/* Where should a pointer's capability live? A pointer-chasing loop with
 * gimso's inline access check and shadow-word read, written out by hand
 * (plain C, clang -O2), over the same objects with their shadow words in
 * three places:
 *
 *   inline    right after the payload, found through the header's aux
 *             distance (gimso's small objects, frame objects, globals)
 *   separate  in another region, found through the aux distance (gimso's
 *             lazily made aux allocations of larger objects)
 *   mirror    in another region at a fixed distance from the payload, so
 *             the shadow address needs no header load (a design gimso
 *             does not use; this program is why)
 *
 * Each step loads one of an object's four pointer fields, checks the
 * access against the header, reads the field's capability and follows the
 * pointer. Objects: [upper, aux | 4 payload words | 4 inline shadow words],
 * each field pointing at a random object.
 *
 * Usage: shadow_placement OBJECTS STEPS ROUNDS
 * Prints, per layout, the median nanoseconds per step over the rounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define OBJ_WORDS 10
#define OBJECTS_AT 0x600000000000ull
#define MIRROR_DISTANCE 0x400000000000ull /* mirror = payload - distance */
#define INLINE_DELTA 32                   /* 4 payload words */

__attribute__((noinline, noreturn)) static void fail(void) {
    fputs("check failed\n", stderr);
    exit(1);
}

static inline void check8(const uint64_t *p, const uint64_t *cap) {
    if ((uintptr_t)p & 7)
        fail();
    if ((uintptr_t)p + 8 > cap[-2])
        fail();
    if ((uintptr_t)p < (uintptr_t)cap)
        fail();
}

/* The capability at rest for the word at `p`, by the aux distance. */
static inline uint64_t cap_by_aux(const uint64_t *p, const uint64_t *cap) {
    int64_t delta = (int64_t)__atomic_load_n(&cap[-1], __ATOMIC_RELAXED) >> 16;
    uint64_t w = __atomic_load_n((const uint64_t *)((const char *)p + delta), __ATOMIC_ACQUIRE);
    if (__builtin_expect(w & 1, 0))
        fail(); /* an atomic box: not in this benchmark */
    return w;
}

/* The capability at rest for the word at `p`, at the fixed distance. */
static inline uint64_t cap_by_mirror(const uint64_t *p, const uint64_t *cap) {
    (void)cap;
    uint64_t w = __atomic_load_n((const uint64_t *)((uintptr_t)p - MIRROR_DISTANCE), __ATOMIC_ACQUIRE);
    if (__builtin_expect(w & 1, 0))
        fail();
    return w;
}

#define CHASE(name, cap_of)                                                  \
    __attribute__((noinline)) static uint64_t name(const uint64_t *p,        \
                                                   const uint64_t *cap,      \
                                                   long steps) {             \
        uint64_t sum = 0;                                                    \
        for (long i = 0; i < steps; i++) {                                   \
            const uint64_t *field = p + (i & 3);                             \
            check8(field, cap);                                              \
            const uint64_t *next = (const uint64_t *)__atomic_load_n(        \
                field, __ATOMIC_RELAXED);                                    \
            cap = (const uint64_t *)cap_of(field, cap);                      \
            p = next;                                                        \
            sum += (uintptr_t)p;                                             \
        }                                                                    \
        return sum;                                                          \
    }
CHASE(chase_by_aux, cap_by_aux)
CHASE(chase_by_mirror, cap_by_mirror)

static uint64_t *objects;
static size_t count;

static void set_aux(int64_t delta) {
    for (size_t i = 0; i < count; i++)
        objects[i * OBJ_WORDS + 1] = (uint64_t)delta << 16;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fputs("usage: shadow_placement OBJECTS STEPS ROUNDS\n", stderr);
        return 2;
    }
    count = strtoul(argv[1], 0, 10);
    long steps = strtol(argv[2], 0, 10);
    int rounds = atoi(argv[3]);
    if (count == 0 || steps <= 0 || rounds <= 0 || rounds > 100)
        return 2;
    size_t bytes = count * OBJ_WORDS * 8;
    int prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE;
    objects = mmap((void *)OBJECTS_AT, bytes, prot, flags, -1, 0);
    void *mirror = mmap((void *)(OBJECTS_AT - MIRROR_DISTANCE), bytes, prot, flags, -1, 0);
    if (objects == MAP_FAILED || mirror == MAP_FAILED) {
        perror("shadow_placement: mmap");
        return 1;
    }
    srand(1);
    for (size_t i = 0; i < count; i++) {
        uint64_t *slot = objects + i * OBJ_WORDS;
        uint64_t *payload = slot + 2;
        slot[0] = (uint64_t)(payload + 4); /* upper */
        for (int f = 0; f < 4; f++) {
            uint64_t *target = objects + (size_t)rand() % count * OBJ_WORDS + 2;
            payload[f] = (uint64_t)target;     /* intval */
            payload[4 + f] = (uint64_t)target; /* inline shadow word */
            *(uint64_t *)((uintptr_t)&payload[f] - MIRROR_DISTANCE) = (uint64_t)target;
        }
    }
    const uint64_t *start = objects + 2;
    double t[3][100];
    uint64_t sums[3] = {0, 0, 0};
    for (int r = 0; r < rounds; r++) {
        double a = seconds();
        set_aux(INLINE_DELTA);
        double b = seconds();
        sums[0] = chase_by_aux(start, start, steps);
        double c = seconds();
        set_aux(-(int64_t)MIRROR_DISTANCE);
        double d = seconds();
        sums[1] = chase_by_aux(start, start, steps);
        double e = seconds();
        sums[2] = chase_by_mirror(start, start, steps);
        double f = seconds();
        (void)a;
        t[0][r] = (c - b) / (double)steps * 1e9;
        t[1][r] = (e - d) / (double)steps * 1e9;
        t[2][r] = (f - e) / (double)steps * 1e9;
    }
    if (sums[0] != sums[1] || sums[1] != sums[2]) {
        fputs("shadow_placement: layouts disagree\n", stderr);
        return 1;
    }
    const char *names[3] = {"inline", "separate", "mirror"};
    for (int l = 0; l < 3; l++) {
        qsort(t[l], (size_t)rounds, sizeof(double), by_value);
        printf("%s %.2f\n", names[l], t[l][rounds / 2]);
    }
    return 0;
}
