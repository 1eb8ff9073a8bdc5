struct pt { int x, y; };
void use(int *p);

int only_scalars(int x) { int a = x; int b = a + 1; return b; }
int var_index(int i) { int arr[4]; arr[0] = 1; arr[1] = 2; return arr[i]; }
int fields(void) { struct pt p; p.x = 1; p.y = 2; return p.x + p.y; }
int escapes(void) { int a = 0; use(&a); return a; }
int *holds_pointer(int *p) { int *q = p; return q; }

struct two { int *a; int *b; };
struct __attribute__((packed)) packed { char c; int *p; };
void report(struct two *t);
__attribute__((noreturn)) void fail(void);

int escapes_on_error(int *x, int bad) {
    struct two t; t.a = x; t.b = x;
    if (bad) { report(&t); fail(); }
    return *t.a + *t.b;
}
int used_after_escape(int *x, int bad) {
    struct two t; t.a = x;
    if (bad) { report(&t); t.b = x; fail(); }
    return *t.a;
}
int escapes_and_returns(int *x, int bad) {
    struct two t; t.a = x;
    if (bad) report(&t);
    return *t.a;
}
int *unaligned_pointer(int *x) { struct packed k; k.p = x; return k.p; }
struct mixed { int *p; long n; };
long int_word_beside_pointer(int *x) { struct mixed m; m.p = x; m.n = 5; return m.n + *m.p; }
void use2(void);
int call_after(void) { int a = 0; use(&a); use2(); return a; }
int in_loop(int n) { int a = 0; for (int i = 0; i < n; i++) use(&a); return a; }
int *keep(int *p);
extern int *g_saved;
void save(int *p);
int returned_alias(void) { int a = 1; int *q = keep(&a); *q = 5; return a; }
int kept_in_global(void) { int a = 1; save(&a); *g_saved = 5; return a; }
