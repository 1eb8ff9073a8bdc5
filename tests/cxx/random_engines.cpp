/* gimso-test
 * expect: run
 * stdout:
 * | mt19937 10000th 4123659995
 * | mt19937_64 10000th 9981545732273789042
 * | minstd_rand 10000th 399268537
 * | ranlux24 10000th 9901578
 * | in range 200000, normal mean near 10: 1
 * | random_device entropy >= 0: 1
 * | seed_seq deterministic 1
 */
// <random>: engines produce the sequences the standard specifies; the
// distributions stay in range; random_device works.
#include <cstdio>
#include <random>

int main() {
    std::mt19937 mt;
    for (int i = 1; i < 10000; i++) mt();
    printf("mt19937 10000th %u\n", (unsigned)mt());
    std::mt19937_64 mt64;
    for (int i = 1; i < 10000; i++) mt64();
    printf("mt19937_64 10000th %llu\n", (unsigned long long)mt64());
    std::minstd_rand lcg;
    for (int i = 1; i < 10000; i++) lcg();
    printf("minstd_rand 10000th %u\n", (unsigned)lcg());
    std::ranlux24 rl;
    for (int i = 1; i < 10000; i++) rl();
    printf("ranlux24 10000th %u\n", (unsigned)rl());
    std::mt19937 gen(12345);
    std::uniform_int_distribution<int> die(1, 6);
    std::normal_distribution<double> normal(10.0, 2.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int in_range = 0;
    double sum = 0;
    for (int i = 0; i < 100000; i++) {
        int d = die(gen);
        in_range += d >= 1 && d <= 6;
        double u = unit(gen);
        in_range += u >= 0.0 && u < 1.0;
        sum += normal(gen);
    }
    printf("in range %d, normal mean near 10: %d\n", in_range, sum / 100000 > 9.9 && sum / 100000 < 10.1);
    std::random_device rd;
    unsigned r = rd();
    printf("random_device entropy >= 0: %d\n", rd.entropy() >= 0.0);
    (void)r;
    std::seed_seq seq{1, 2, 3};
    std::mt19937 seeded(seq);
    std::mt19937 seeded2(seq);
    printf("seed_seq deterministic %d\n", seeded() == seeded2());
}
