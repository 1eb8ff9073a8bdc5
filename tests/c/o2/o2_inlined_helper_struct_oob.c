/* gimso-test
 * expect: run
 * env: GIMSO_BACKTRACE=0
 * stdout:
 * | in bounds: 10/10
 * | out of bounds: 10/10
 */
/* A caller's local reached by a helper the optimiser inlines, other than as
 * an array argument: a struct passed by address whose array field or whose
 * words the helper indexes, an array whose address sits in a struct field,
 * a scalar indexed as an array. After inlining, the index is a constant and
 * the access one the optimiser would delete or fold; each out-of-bounds one
 * is reported at -O2 as at -O0, and the same helpers within bounds run
 * cleanly. Each case runs in a child process. */
#include "oob_cases.h"

static volatile int sink;

struct buf {
    int n;
    char data[12];
};
struct ref {
    int *p;
    int n;
};
struct pt {
    int x, y;
};
struct outer {
    int tag;
    struct buf inner;
};

static void put_char(struct buf *b, int i, char c) { b->data[i] = c; }
static char get_char(const struct buf *b, int i) { return b->data[i]; }
static int get_ref(const struct ref *r, int i) { return r->p[i]; }
static int get_word(const struct pt *p, int i) { return ((const int *)p)[i]; }
static void set_word(struct pt *p, int i, int v) { ((int *)p)[i] = v; }
static int get_int(const int *p, int i) { return p[i]; }
static void fill_inner(struct outer *o, int n) { memset(o->inner.data, 'z', (size_t)n); }
static void name(struct buf *b, int extra) {
    strcpy(b->data, extra ? "abcdefghijklmnop" : "abcdefghijk");
}

/* `extra` is 0 for the in-bounds run, 1 for the out-of-bounds one. */
static void case_struct_field_write(int extra) {
    struct buf b;
    b.n = 1;
    put_char(&b, 11 + extra, 'x');
    sink = b.n;
}
static void case_struct_field_read(int extra) {
    struct buf b = {1, "abcdefghijk"};
    sink = get_char(&b, 11 + extra);
}
static void case_array_in_field(int extra) {
    int a[4] = {1, 2, 3, 4};
    struct ref r = {a, 4};
    sink = get_ref(&r, 3 + extra);
}
static void case_array_in_field_before(int extra) {
    int a[4] = {1, 2, 3, 4};
    struct ref r = {a, 4};
    sink = get_ref(&r, 0 - extra);
}
static void case_struct_words_read(int extra) {
    struct pt p = {1, 2};
    sink = get_word(&p, 1 + extra);
}
static void case_struct_words_write(int extra) {
    struct pt p = {1, 2};
    set_word(&p, 1 + extra, 5);
    sink = p.x;
}
static void case_struct_words_before(int extra) {
    struct pt p = {1, 2};
    set_word(&p, 0 - extra, 5);
    sink = p.y;
}
static void case_scalar(int extra) {
    int x = 7;
    sink = get_int(&x, extra);
}
static void case_nested_memset(int extra) {
    struct outer o;
    o.tag = 1;
    fill_inner(&o, 12 + 4 * extra);
    sink = o.tag;
}
static void case_strcpy_field(int extra) {
    struct buf b;
    b.n = 2;
    name(&b, extra);
    sink = b.n;
}

static const oob_case cases[] = {
    case_struct_field_write, case_struct_field_read,  case_array_in_field,
    case_array_in_field_before, case_struct_words_read, case_struct_words_write,
    case_struct_words_before, case_scalar,             case_nested_memset,
    case_strcpy_field};

int main(void) { return oob_cases_main(cases, (int)(sizeof cases / sizeof cases[0])); }
