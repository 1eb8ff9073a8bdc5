/* gimso-test
 * expect: run
 * stdout:
 * | 4 -> digit 4
 * | x -> none -1
 * | text! 5
 * | has_value 0
 * | 0: int 42
 * | 1: double 2.500000
 * | 2: string hi
 * | 3: vector of 3
 * | holds string 1, get now a string
 * | get_if int null 1
 * | any int 10
 * | any any string type ok 1
 * | any empty 1
 * | tuple 7 seven 7.5
 * | tie 7 seven
 * | apply 19.5
 * | size 3, get<1> c
 * | a:[1,2] b:[3,4] 
 * | tuple compare 1
 */
// std::optional, std::variant with std::visit, std::any, std::pair and
// std::tuple with structured bindings, std::apply and std::tie.
#include <any>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

static std::optional<int> parse_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    return std::nullopt;
}

using Value = std::variant<int, double, std::string, std::vector<int>>;

struct Describe {
    std::string operator()(int i) const { return "int " + std::to_string(i); }
    std::string operator()(double d) const { return "double " + std::to_string(d); }
    std::string operator()(const std::string &s) const { return "string " + s; }
    std::string operator()(const std::vector<int> &v) const { return "vector of " + std::to_string(v.size()); }
};

static std::tuple<int, std::string, double> record() { return {7, "seven", 7.5}; }

int main() {
    for (char c : {'4', 'x'}) {
        auto d = parse_digit(c);
        printf("%c -> %s %d\n", c, d ? "digit" : "none", d.value_or(-1));
    }
    std::optional<std::string> os = "text";
    os->append("!");
    printf("%s %zu\n", os->c_str(), os.value().size());
    os.reset();
    printf("has_value %d\n", os.has_value());
    std::vector<Value> vals{42, 2.5, std::string("hi"), std::vector<int>{1, 2, 3}};
    for (auto &v : vals) printf("%zu: %s\n", v.index(), std::visit(Describe{}, v).c_str());
    Value v = 3;
    v = std::string("now a string");
    printf("holds string %d, get %s\n", std::holds_alternative<std::string>(v), std::get<std::string>(v).c_str());
    printf("get_if int null %d\n", std::get_if<int>(&v) == nullptr);
    std::any a = 10;
    printf("any int %d\n", std::any_cast<int>(a));
    a = std::string("any string");
    printf("any %s type ok %d\n", std::any_cast<std::string &>(a).c_str(), a.type() == typeid(std::string));
    a.reset();
    printf("any empty %d\n", !a.has_value());
    auto [n, name, x] = record();
    printf("tuple %d %s %.1f\n", n, name.c_str(), x);
    int p;
    std::string q;
    std::tie(p, q, std::ignore) = record();
    printf("tie %d %s\n", p, q.c_str());
    auto sum = std::apply([](int a2, const std::string &s, double d) { return a2 + (int)s.size() + d; }, record());
    printf("apply %.1f\n", sum);
    auto t = std::make_tuple(1, 'c', 2.0);
    printf("size %zu, get<1> %c\n", std::tuple_size_v<decltype(t)>, std::get<1>(t));
    std::map<std::string, std::pair<int, int>> ranges{{"a", {1, 2}}, {"b", {3, 4}}};
    for (auto &[key, pr] : ranges) printf("%s:[%d,%d] ", key.c_str(), pr.first, pr.second);
    printf("\n");
    auto cmp = std::make_tuple(1, 2, 3) < std::make_tuple(1, 3, 0);
    printf("tuple compare %d\n", cmp);
}
