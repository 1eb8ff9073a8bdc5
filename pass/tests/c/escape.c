struct pt { int x, y; };
void use(int *p);

int only_scalars(int x) { int a = x; int b = a + 1; return b; }
int var_index(int i) { int arr[4]; arr[0] = 1; arr[1] = 2; return arr[i]; }
int fields(void) { struct pt p; p.x = 1; p.y = 2; return p.x + p.y; }
int escapes(void) { int a = 0; use(&a); return a; }
int *holds_pointer(int *p) { int *q = p; return q; }
