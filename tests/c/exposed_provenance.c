/* gimso-test
 * expect: error use after free
 * line: 93
 * flags: -fgimso-exposed-provenance
 * env: GIMSO_GC_THRESHOLD=256K
 * stdout:
 * | found 42 probe on stack 1
 * | literal abc
 * | after collections 42 7
 * | through another type 3
 * | constant through a call abc 3
 */
/* -fgimso-exposed-provenance: pointers that travel as `unsigned long`
 * through calls and tables (Ruby's and Oniguruma's st.c) are converted back
 * with the capability of the object their integer was made from: heap
 * objects (kept alive until freed, though only integers refer to them),
 * locals and string literals. An object freed meanwhile is reported as a
 * use after free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long data_t;
struct key { const char *s; int n; };
struct entry { data_t key, value; };
struct table { struct entry e[8]; int n; int (*cmp)(data_t, data_t); };

static int __attribute__((noinline)) key_cmp(data_t a, data_t b) {
    const struct key *x = (const struct key *)a, *y = (const struct key *)b;
    return x->n != y->n || strcmp(x->s, y->s) != 0;
}

static void __attribute__((noinline)) insert(struct table *t, data_t key, data_t value) {
    t->e[t->n].key = key;
    t->e[t->n].value = value;
    t->n++;
}

static int __attribute__((noinline)) lookup(struct table *t, data_t key, data_t *value) {
    for (int i = 0; i < t->n; i++)
        if (t->cmp(key, t->e[i].key) == 0) {
            *value = t->e[i].value;
            return 1;
        }
    return 0;
}

static int __attribute__((noinline)) key_len(const struct key *k) { return (int)strlen(k->s); }

static const char *__attribute__((noinline)) as_text(data_t d) { return (const char *)d; }

static const char greeting[] = "abc";

int main(void) {
    struct table *t = calloc(1, sizeof *t);
    t->cmp = key_cmp;
    struct key *k = malloc(sizeof *k);
    k->s = "abc";
    k->n = 3;
    int *v = malloc(sizeof *v);
    *v = 42;
    insert(t, (data_t)k, (data_t)v);
    k = NULL;
    v = NULL;

    struct key probe = {"abc", 3};
    int *found = NULL;
    int ok = lookup(t, (data_t)&probe, (data_t *)(void *)&found);
    printf("found %d probe on stack %d\n", ok ? *found : -1, ok);

    data_t lit = (data_t) "abc";
    printf("literal %s\n", (const char *)lit);

    /* The table holds the key and value as integers only: exposed heap
     * objects stay until freed however many collections run. */
    for (int i = 0; i < 20000; i++) {
        char *junk = malloc(64);
        junk[0] = (char)i;
    }
    lookup(t, (data_t)&probe, (data_t *)(void *)&found);
    printf("after collections %d %d\n", *found, ((struct key *)t->e[0].key)->n + 4);

    int (*as_int)(data_t) = (int (*)(data_t))key_len;
    printf("through another type %d\n", as_int(t->e[0].key));

    /* A constant conversion (folded into the call's operand): start-up
     * exposes the global. */
    const char *(*volatile convert)(data_t) = as_text;
    const char *back = convert((data_t)greeting);
    printf("constant through a call %s %d\n", back, (int)strlen(back));

    free((void *)t->e[0].value);
    printf("%d\n", *(int *)t->e[0].value);
    return 0;
}
