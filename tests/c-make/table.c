#include <stdlib.h>
#include <string.h>

#include "project.h"

struct entry {
    char *key;
    long count;
    struct entry *next;
};

struct table {
    size_t nbuckets, size;
    struct entry **buckets;
};

static size_t hash(const char *s) {
    size_t h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h;
}

struct table *table_new(size_t buckets) {
    struct table *t = malloc(sizeof *t);
    t->nbuckets = buckets;
    t->size = 0;
    t->buckets = calloc(buckets, sizeof *t->buckets);
    return t;
}

void table_add(struct table *t, const char *key) {
    struct entry **b = &t->buckets[hash(key) % t->nbuckets];
    for (struct entry *e = *b; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            e->count++;
            return;
        }
    struct entry *e = malloc(sizeof *e);
    e->key = strdup(key);
    e->count = 1;
    e->next = *b;
    *b = e;
    t->size++;
}

long table_get(const struct table *t, const char *key) {
    for (struct entry *e = t->buckets[hash(key) % t->nbuckets]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e->count;
    return 0;
}

size_t table_size(const struct table *t) { return t->size; }

static int by_count_then_key(const void *a, const void *b) {
    const struct entry *x = *(const struct entry *const *)a;
    const struct entry *y = *(const struct entry *const *)b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->key, y->key);
}

size_t table_sorted(const struct table *t, const char ***keys, long **counts) {
    struct entry **all = malloc(t->size * sizeof *all);
    size_t n = 0;
    for (size_t i = 0; i < t->nbuckets; i++)
        for (struct entry *e = t->buckets[i]; e; e = e->next)
            all[n++] = e;
    qsort(all, n, sizeof *all, by_count_then_key);
    *keys = malloc(n * sizeof **keys);
    *counts = malloc(n * sizeof **counts);
    for (size_t i = 0; i < n; i++) {
        (*keys)[i] = all[i]->key;
        (*counts)[i] = all[i]->count;
    }
    free(all);
    return n;
}

void table_free(struct table *t) {
    for (size_t i = 0; i < t->nbuckets; i++) {
        struct entry *e = t->buckets[i];
        while (e) {
            struct entry *next = e->next;
            free(e->key);
            free(e);
            e = next;
        }
    }
    free(t->buckets);
    free(t);
}
