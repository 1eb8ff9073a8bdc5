/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 */
// A C++ heap overflow is a safety error at the faulting line.
extern "C" int printf(const char *, ...);

struct Buffer {
    int *data = new int[4];
    ~Buffer() { delete[] data; }
};

[[gnu::noinline]] void fill(Buffer &b, int n) {
    for (int i = 0; i < n; i++) b.data[i] = i; /* BUG */
}

int main() {
    Buffer b;
    fill(b, 5);
    printf("not reached\n");
    return 0;
}
