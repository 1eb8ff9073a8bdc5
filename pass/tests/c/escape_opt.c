/* Compiled at -O1: parameters are SSA values, escaping locals stay allocas. */
void save(int *p);
long convert(const double *d, long *out);

/* A pointer the frame had before the call cannot point at the copy. */
int old_pointer_after(int *out) { int a = 1; save(&a); *out = 5; return a; }

/* Lua's lua_tointegerx: the out-parameter goes to a call on the slow path. */
long to_integer(const double *d, int is_int, long iv, int *isnum) {
    long res = 0;
    int ok;
    if (is_int) { res = iv; ok = 1; }
    else ok = (int)convert(d, &res);
    if (isnum) *isnum = ok;
    return res;
}

/* Frame objects: the address goes only to parameters LLVM proves
 * `nocapture` (callees defined here, or library functions it knows). */
__attribute__((noinline)) static void fill(unsigned *out, int n) { *out = (unsigned)n * 3; }
int *g_kept;
__attribute__((noinline)) static void stash(int *p) { g_kept = p; }
int snprintf(char *buf, unsigned long n, const char *fmt, ...);
unsigned nocapture_callees(int n) {
    unsigned x;
    unsigned t = 0;
    for (int i = 0; i < n; i++) { fill(&x, i); t += x; }
    char buf[16];
    snprintf(buf, sizeof buf, "%d", n);
    return t + (unsigned)buf[0];
}
/* The callee keeps the address: a heap object. */
int captured(int n) { int a = n; stash(&a); fill((unsigned *)&a, n); return a; }
/* Passed as a variadic argument: no attribute covers it. */
int as_vararg(int n) { int a = n; snprintf(0, 0, "%n", &a); fill((unsigned *)&a, 1); return a; }
/* Too big for the frame. */
int too_big(int n) { char big[4096]; snprintf(big, sizeof big, "%d", n); fill((unsigned *)big, n); return big[0]; }
/* A library function returning a pointer may return the argument. */
char *getcwd(char *buf, unsigned long size);
char *cwd_first(void) { char buf[64]; char *p = getcwd(buf, sizeof buf); fill((unsigned *)buf, 1); return p; }
