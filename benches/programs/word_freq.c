/* word_freq: generates a pseudo-random text from a vocabulary, tokenizes it,
 * counts word frequencies in a sorted binary tree and reports the most common
 * words, using strtok, strcmp, memcpy and qsort.
 * Usage: word_freq [words]   (default 4000000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const syllables[] = {"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "qua", "zen",
                                        "do", "fe", "gi", "ha", "ju", "ol"};

static uint32_t seed = 12345;

static uint32_t rnd(void) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 8) & 0xffffff;
}

struct node {
    char *word;
    long count;
    struct node *left, *right;
};

static struct node *insert(struct node *root, const char *w, long *distinct) {
    struct node **p = &root;
    while (*p) {
        int c = strcmp(w, (*p)->word);
        if (c == 0) {
            (*p)->count++;
            return root;
        }
        p = c < 0 ? &(*p)->left : &(*p)->right;
    }
    struct node *n = malloc(sizeof *n);
    n->word = strdup(w);
    n->count = 1;
    n->left = n->right = NULL;
    *p = n;
    (*distinct)++;
    return root;
}

static void collect(struct node *n, struct node **out, size_t *k) {
    if (!n)
        return;
    collect(n->left, out, k);
    out[(*k)++] = n;
    collect(n->right, out, k);
}

static int by_count(const void *a, const void *b) {
    const struct node *x = *(struct node *const *)a, *y = *(struct node *const *)b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->word, y->word);
}

int main(int argc, char **argv) {
    long nwords = argc > 1 ? atol(argv[1]) : 4000000;
    /* Generate the text: words of 1-3 syllables with a skewed distribution. */
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (long i = 0; i < nwords; i++) {
        char word[16];
        size_t wl = 0;
        int nsyl = 1 + (int)(rnd() % 3);
        for (int s = 0; s < nsyl; s++) {
            uint32_t r = rnd();
            const char *syl = syllables[(r % 16) * (r % 16) / 16];
            size_t sl = strlen(syl);
            memcpy(word + wl, syl, sl);
            wl += sl;
        }
        if (len + wl + 2 > cap) {
            cap *= 2;
            text = realloc(text, cap);
        }
        memcpy(text + len, word, wl);
        len += wl;
        text[len++] = (i % 17 == 16) ? '\n' : ((i % 5 == 4) ? ',' : ' ');
    }
    text[len] = 0;
    struct node *root = NULL;
    long distinct = 0, total = 0;
    size_t chars = 0;
    for (char *w = strtok(text, " ,\n"); w; w = strtok(NULL, " ,\n")) {
        root = insert(root, w, &distinct);
        total++;
        chars += strlen(w);
    }
    struct node **all = malloc(distinct * sizeof *all);
    size_t k = 0;
    collect(root, all, &k);
    qsort(all, k, sizeof *all, by_count);
    uint64_t checksum = 0;
    for (size_t i = 0; i < k; i++)
        for (const char *c = all[i]->word; *c; c++)
            checksum = checksum * 31 + (unsigned char)*c + (uint64_t)all[i]->count;
    printf("words %ld distinct %ld chars %zu\n", total, distinct, chars);
    for (size_t i = 0; i < 5 && i < k; i++)
        printf("%zu. %s %ld\n", i + 1, all[i]->word, all[i]->count);
    printf("checksum %llu\n", (unsigned long long)checksum);
    free(all);
    free(text);
    return 0;
}
