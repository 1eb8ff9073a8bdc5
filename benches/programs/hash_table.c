/* hash_table: an open-hashing (chained) table of string keys to values with
 * inserts, lookups, updates and deletes driven by a deterministic PRNG.
 * Usage: hash_table [operations]   (default 1300000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    struct entry *next;
    uint64_t hash;
    char *key;
    long value;
};

struct table {
    struct entry **buckets;
    size_t nbuckets, size;
};

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t next_rand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint64_t hash_str(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static void grow(struct table *t) {
    size_t n = t->nbuckets * 2;
    struct entry **b = calloc(n, sizeof *b);
    for (size_t i = 0; i < t->nbuckets; i++) {
        struct entry *e = t->buckets[i];
        while (e) {
            struct entry *next = e->next;
            size_t j = e->hash & (n - 1);
            e->next = b[j];
            b[j] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = b;
    t->nbuckets = n;
}

static struct entry **find(struct table *t, const char *key, uint64_t h) {
    struct entry **slot = &t->buckets[h & (t->nbuckets - 1)];
    while (*slot && ((*slot)->hash != h || strcmp((*slot)->key, key) != 0))
        slot = &(*slot)->next;
    return slot;
}

static void put(struct table *t, const char *key, long value) {
    uint64_t h = hash_str(key);
    struct entry **slot = find(t, key, h);
    if (*slot) {
        (*slot)->value += value;
        return;
    }
    struct entry *e = malloc(sizeof *e);
    e->next = NULL;
    e->hash = h;
    e->key = strdup(key);
    e->value = value;
    *slot = e;
    if (++t->size > t->nbuckets)
        grow(t);
}

static long get(struct table *t, const char *key) {
    struct entry **slot = find(t, key, hash_str(key));
    return *slot ? (*slot)->value : -1;
}

static int del(struct table *t, const char *key) {
    struct entry **slot = find(t, key, hash_str(key));
    struct entry *e = *slot;
    if (!e)
        return 0;
    *slot = e->next;
    free(e->key);
    free(e);
    t->size--;
    return 1;
}

int main(int argc, char **argv) {
    long ops = argc > 1 ? atol(argv[1]) : 1300000;
    struct table t = {calloc(16, sizeof(struct entry *)), 16, 0};
    long found = 0, missing = 0, deleted = 0, sum = 0;
    char key[32];
    for (long i = 0; i < ops; i++) {
        uint64_t r = next_rand();
        snprintf(key, sizeof key, "key-%lu", (unsigned long)(r % 200000));
        switch ((r >> 32) % 4) {
        case 0:
        case 1:
            put(&t, key, (long)(r & 0xff));
            break;
        case 2: {
            long v = get(&t, key);
            if (v >= 0) {
                found++;
                sum += v;
            } else {
                missing++;
            }
            break;
        }
        case 3:
            deleted += del(&t, key);
            break;
        }
    }
    printf("size %zu buckets %zu found %ld missing %ld deleted %ld sum %ld\n", t.size, t.nbuckets,
           found, missing, deleted, sum);
    return 0;
}
