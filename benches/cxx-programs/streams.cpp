// iostreams: formatting a million numbers into a stringstream and parsing
// them back.
#include <cstdio>
#include <sstream>
#include <string>

int main() {
    std::ostringstream out;
    unsigned x = 1;
    for (int i = 0; i < 1000000; i++) {
        x = x * 1103515245u + 12345u;
        out << (x % 1000000) << ' ' << (i % 7) * 0.5 << '\n';
    }
    std::istringstream in(out.str());
    long long a = 0;
    double b = 0;
    long n;
    double d;
    while (in >> n >> d) {
        a += n;
        b += d;
    }
    printf("%lld %.1f %zu\n", a, b, out.str().size());
}
