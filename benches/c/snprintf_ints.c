/* snprintf of integers and short strings, the formatting real programs do
 * most (Lua's tostring of an integer is snprintf("%lld")). Prints a
 * checksum of everything formatted so both builds can be compared.
 * Usage: snprintf_ints [calls per format, default 200000] */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long long n = argc > 1 ? atoll(argv[1]) : 200000;
    char buf[64];
    long long sum = 0;
    for (long long i = 0; i < n; i++) {
        sum += snprintf(buf, sizeof buf, "%lld", i * 7919 - 5000000) + buf[1];
        sum += snprintf(buf, sizeof buf, "%s:%d", "key", (int)i) + buf[5];
        sum += snprintf(buf, sizeof buf, "%zu items", (size_t)i) + buf[0];
    }
    printf("%lld\n", sum);
    return 0;
}
