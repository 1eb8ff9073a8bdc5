/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=3
 * stdout:
 * | caught 300 exceptions, payload sum 45150, live 0
 */
// Many exceptions carrying heap data, thrown while the collector runs
// every few allocations: the exception object in flight, the caught one
// and the objects they point to survive exactly as long as needed.
extern "C" int printf(const char *, ...);

static int live;
struct Payload {
    int *cells;
    int n;
    explicit Payload(int k) : cells(new int[k + 1]), n(k + 1) {
        live++;
        for (int i = 0; i < n; i++)
            cells[i] = i;
    }
    Payload(const Payload &o) : cells(new int[o.n]), n(o.n) {
        live++;
        for (int i = 0; i < n; i++)
            cells[i] = o.cells[i];
    }
    ~Payload() {
        live--;
        delete[] cells;
    }
    int last() const { return cells[n - 1]; }
};

[[gnu::noinline]] void thrower(int k) {
    Payload local(k);
    throw Payload(local);
}

int main() {
    int caught = 0;
    long sum = 0;
    for (int k = 0; k < 300; k++) {
        try {
            thrower(k);
        } catch (const Payload &p) {
            caught++;
            sum += p.last() + 1;
        }
    }
    printf("caught %d exceptions, payload sum %ld, live %d\n", caught, sum, live);
    return 0;
}
