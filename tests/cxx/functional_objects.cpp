/* gimso-test
 * expect: run
 * stdout:
 * | 20 110 30 9 
 * | *=12 +=7 max=4 
 * | balance 75 via invoke 75
 * | counter 2
 * | fact(15) 1307674368000
 * | empty 1
 * | hash equal 1
 */
// <functional>: std::function over lambdas, functors and plain functions,
// std::bind, std::invoke, std::mem_fn, std::ref, recursion.
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

static int twice(int x) { return 2 * x; }
struct Adder {
    int base;
    int operator()(int x) const { return base + x; }
};
struct Account {
    int balance = 0;
    void deposit(int n) { balance += n; }
    int get() const { return balance; }
};

int main() {
    std::vector<std::function<int(int)>> fs;
    fs.push_back(twice);
    fs.push_back(Adder{100});
    int k = 3;
    fs.push_back([k](int x) { return x * k; });
    fs.push_back(std::bind(std::minus<int>(), std::placeholders::_1, 1));
    for (auto &f : fs) printf("%d ", f(10));
    printf("\n");
    std::map<std::string, std::function<double(double, double)>> ops{
        {"+", std::plus<double>()}, {"*", std::multiplies<double>()}, {"max", [](double a, double b) { return a > b ? a : b; }}};
    for (auto &[name, op] : ops) printf("%s=%g ", name.c_str(), op(3, 4));
    printf("\n");
    Account acct;
    auto dep = std::mem_fn(&Account::deposit);
    dep(acct, 50);
    std::invoke(&Account::deposit, acct, 25);
    printf("balance %d via invoke %d\n", acct.get(), std::invoke(&Account::get, acct));
    int counter = 0;
    auto inc = [](int &c) { c++; };
    auto bound = std::bind(inc, std::ref(counter));
    bound();
    bound();
    printf("counter %d\n", counter);
    std::function<long(int)> fact = [&](int n) -> long { return n <= 1 ? 1 : n * fact(n - 1); };
    printf("fact(15) %ld\n", fact(15));
    std::function<void()> empty;
    printf("empty %d\n", !empty);
    printf("hash equal %d\n", std::hash<std::string>()("abc") == std::hash<std::string>()(std::string("ab") + "c"));
}
