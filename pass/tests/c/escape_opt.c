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
