#include <stdlib.h>
#include <string.h>

#include "project.h"

static int is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'';
}

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

struct word *split_words(const char *text, size_t *count) {
    struct word *head = NULL, **tail = &head;
    *count = 0;
    const char *p = text;
    while (*p) {
        while (*p && !is_word_char(*p))
            p++;
        const char *start = p;
        while (*p && is_word_char(*p))
            p++;
        if (p == start)
            continue;
        struct word *w = malloc(sizeof *w);
        w->text = strndup(start, (size_t)(p - start));
        for (char *c = w->text; *c; c++)
            *c = lower(*c);
        w->next = NULL;
        *tail = w;
        tail = &w->next;
        (*count)++;
    }
    return head;
}

void for_each_word(const struct word *w, void (*fn)(const char *, void *), void *ctx) {
    for (; w; w = w->next)
        fn(w->text, ctx);
}

void free_words(struct word *w) {
    while (w) {
        struct word *next = w->next;
        free(w->text);
        free(w);
        w = next;
    }
}
