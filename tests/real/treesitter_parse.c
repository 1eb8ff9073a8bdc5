/* tree-sitter under gimso: its C grammar parses the C files named
 * on the command line, then each file again incrementally after an edit
 * (a space inserted in the middle, then removed). Prints node counts,
 * depth, error flags and a hash of each tree's S-expression, to compare
 * with the plain build.
 *   treesitter_parse FILE.c... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_sitter/api.h"

const TSLanguage *tree_sitter_c(void);

static char *slurp(const char *path, long *n) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)*n + 2);
    *n = (long)fread(b, 1, (size_t)*n, f);
    b[*n] = 0;
    fclose(f);
    return b;
}

static unsigned long walk(TSTreeCursor *c, unsigned depth, unsigned *max_depth) {
    unsigned long nodes = 1;
    if (depth > *max_depth)
        *max_depth = depth;
    if (ts_tree_cursor_goto_first_child(c)) {
        do
            nodes += walk(c, depth + 1, max_depth);
        while (ts_tree_cursor_goto_next_sibling(c));
        ts_tree_cursor_goto_parent(c);
    }
    return nodes;
}

static unsigned long hash(const char *s) {
    unsigned long h = 1469598103934665603UL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

static void describe(const char *what, TSTree *t) {
    TSNode root = ts_tree_root_node(t);
    TSTreeCursor c = ts_tree_cursor_new(root);
    unsigned depth = 0;
    unsigned long nodes = walk(&c, 0, &depth);
    ts_tree_cursor_delete(&c);
    char *s = ts_node_string(root);
    printf("  %s: %lu nodes, depth %u, errors %d, %016lx\n", what, nodes, depth,
           ts_node_has_error(root), hash(s));
    free(s);
}

int main(int argc, char **argv) {
    TSParser *p = ts_parser_new();
    if (!ts_parser_set_language(p, tree_sitter_c())) {
        printf("language version mismatch\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        long n = 0;
        char *src = slurp(argv[i], &n);
        if (!src) {
            printf("cannot read %s\n", argv[i]);
            return 1;
        }
        const char *base = strrchr(argv[i], '/');
        printf("%s (%ld bytes)\n", base ? base + 1 : argv[i], n);
        TSTree *t = ts_parser_parse_string(p, NULL, src, (uint32_t)n);
        describe("parsed", t);
        /* Insert a space at the middle and reparse from the edited tree. */
        uint32_t mid = (uint32_t)n / 2;
        char *edited = malloc((size_t)n + 2);
        memcpy(edited, src, mid);
        edited[mid] = ' ';
        memcpy(edited + mid + 1, src + mid, (size_t)n - mid + 1);
        TSInputEdit e = {mid, mid, mid + 1, {0, 0}, {0, 0}, {0, 0}};
        TSTree *old = ts_tree_copy(t);
        ts_tree_edit(old, &e);
        TSTree *t2 = ts_parser_parse_string(p, old, edited, (uint32_t)n + 1);
        describe("edited", t2);
        uint32_t ranges = 0;
        TSRange *changed = ts_tree_get_changed_ranges(old, t2, &ranges);
        printf("  changed ranges %u\n", ranges);
        free(changed);
        /* Remove it again: the tree must match the first parse. */
        TSInputEdit back = {mid, mid + 1, mid, {0, 0}, {0, 0}, {0, 0}};
        ts_tree_edit(t2, &back);
        TSTree *t3 = ts_parser_parse_string(p, t2, src, (uint32_t)n);
        char *a = ts_node_string(ts_tree_root_node(t));
        char *b = ts_node_string(ts_tree_root_node(t3));
        printf("  restored same %d\n", strcmp(a, b) == 0);
        free(a);
        free(b);
        ts_tree_delete(t);
        ts_tree_delete(old);
        ts_tree_delete(t2);
        ts_tree_delete(t3);
        free(src);
        free(edited);
    }
    ts_parser_delete(p);
    printf("done\n");
    return 0;
}
