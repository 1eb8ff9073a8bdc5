/* A small multi-file program for the Makefile test: word statistics. */
#ifndef PROJECT_H
#define PROJECT_H

#include <stddef.h>

/* list.c: a singly linked list of words. */
struct word {
    char *text;
    struct word *next;
};
struct word *split_words(const char *text, size_t *count);
void free_words(struct word *w);
void for_each_word(const struct word *w, void (*fn)(const char *, void *), void *ctx);

/* table.c: a chained hash table counting words. */
struct table;
struct table *table_new(size_t buckets);
void table_add(struct table *t, const char *key);
long table_get(const struct table *t, const char *key);
size_t table_size(const struct table *t);
/* Entries sorted by descending count, then by key; returns the count. */
size_t table_sorted(const struct table *t, const char ***keys, long **counts);
void table_free(struct table *t);

/* strbuf.c: a growable string buffer. */
struct strbuf {
    char *data;
    size_t len, cap;
};
void sb_init(struct strbuf *sb);
void sb_printf(struct strbuf *sb, const char *fmt, ...);
void sb_free(struct strbuf *sb);

/* Shared data defined in main.c. */
extern const char *const corpus;
extern int verbose_level;

#endif
