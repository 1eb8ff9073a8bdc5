/* gimso-test
 * expect: run
 * stdout:
 * | accumulate 55 product 120
 * | reduce 55
 * | inner_product 385
 * | transform_reduce 165
 * | 1 3 6 10 15 21 28 36 45 55 
 * | 1 2 3 4 5 6 7 8 9 10 
 * | 0 1 3 6 10 15 21 28 36 45 
 * | 10! = 3628800
 * | gcd 12 lcm 12
 * | 4.00
 */
// <numeric>: accumulate, reduce, scans, inner products, iota, gcd/lcm.
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

int main() {
    std::vector<int> v(10);
    std::iota(v.begin(), v.end(), 1);
    printf("accumulate %d product %d\n", std::accumulate(v.begin(), v.end(), 0),
           std::accumulate(v.begin(), v.begin() + 5, 1, std::multiplies<int>()));
    printf("reduce %d\n", std::reduce(v.begin(), v.end()));
    printf("inner_product %d\n", std::inner_product(v.begin(), v.end(), v.begin(), 0));
    printf("transform_reduce %d\n",
           std::transform_reduce(v.begin(), v.end(), 0, std::plus<>(), [](int x) { return x * 3; }));
    std::vector<int> out(10);
    std::partial_sum(v.begin(), v.end(), out.begin());
    for (int x : out) printf("%d ", x);
    printf("\n");
    std::adjacent_difference(out.begin(), out.end(), out.begin());
    for (int x : out) printf("%d ", x);
    printf("\n");
    std::exclusive_scan(v.begin(), v.end(), out.begin(), 0);
    for (int x : out) printf("%d ", x);
    printf("\n");
    std::inclusive_scan(v.begin(), v.end(), out.begin(), std::multiplies<>());
    printf("10! = %d\n", out[9]);
    printf("gcd %d lcm %d\n", std::gcd(84, 36), std::lcm(4, 6));
    std::vector<double> d{0.5, 1.5, 2.0};
    printf("%.2f\n", std::accumulate(d.begin(), d.end(), 0.0));
}
