#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"

const char *const corpus =
    "It was the best of times, it was the worst of times, it was the age of wisdom, "
    "it was the age of foolishness, it was the epoch of belief, it was the epoch of "
    "incredulity, it was the season of Light, it was the season of Darkness, it was "
    "the spring of hope, it was the winter of despair, we had everything before us, "
    "we had nothing before us, we were all going direct to Heaven, we were all going "
    "direct the other way.";

int verbose_level = 1;

struct length_stats {
    size_t longest;
    const char *longest_word;
    size_t total_chars;
};

static void count_into_table(const char *w, void *ctx) { table_add(ctx, w); }

static void measure(const char *w, void *ctx) {
    struct length_stats *s = ctx;
    size_t n = strlen(w);
    s->total_chars += n;
    if (n > s->longest) {
        s->longest = n;
        s->longest_word = w;
    }
}

int main(void) {
    size_t nwords;
    struct word *words = split_words(corpus, &nwords);
    struct table *t = table_new(31);
    for_each_word(words, count_into_table, t);
    struct length_stats ls = {0, NULL, 0};
    for_each_word(words, measure, &ls);

    struct strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "words: %zu, distinct: %zu\n", nwords, table_size(t));
    sb_printf(&sb, "longest: %s (%zu letters), average x100: %zu\n", ls.longest_word, ls.longest,
              ls.total_chars * 100 / nwords);
    const char **keys;
    long *counts;
    size_t n = table_sorted(t, &keys, &counts);
    size_t top = n < 8 ? n : 8;
    for (size_t i = 0; i < top; i++)
        sb_printf(&sb, "%2zu. %-8s %ld\n", i + 1, keys[i], counts[i]);
    sb_printf(&sb, "count(times)=%ld count(darkness)=%ld count(absent)=%ld\n",
              table_get(t, "times"), table_get(t, "darkness"), table_get(t, "absent"));
    if (verbose_level > 0)
        fputs(sb.data, stdout);
    free(keys);
    free(counts);
    sb_free(&sb);
    table_free(t);
    free_words(words);
    return 0;
}
